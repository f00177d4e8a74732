import { z } from "zod";
import { CHANGE_PAGE_DEFAULT, CHANGE_PAGE_MAX } from "./change-log";
import { BUCKETS, METRICS, RANGES, type Bucket } from "./buckets";
import { CHANGE_KINDS } from "./changes";

// Query strings of the history API. Fixed allowed values; limits are clamped, not trusted.

export const seriesQuery = z.object({
  metric: z.enum(METRICS),
  range: z.enum(RANGES).default("24h"),
  bucket: z.enum(Object.keys(BUCKETS) as [Bucket, ...Bucket[]]).optional(),
});

export const changesQuery = z.object({
  kind: z.enum(CHANGE_KINDS).optional(),
  provider: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().default(CHANGE_PAGE_DEFAULT).transform((n) => Math.min(CHANGE_PAGE_MAX, Math.max(1, n))),
  before: z.coerce.number().int().positive().optional(),
});
