import "server-only";
import type { Db } from "../db/engines";
import { Prisma } from "../db/generated/client";
import { priceString } from "../money";
import { findWatchedModel } from "../queries/models";
import {
  BUCKET_ORIGIN,
  bucketFor,
  fillBuckets,
  rangeWindow,
  type Bucket,
  type BucketPoint,
  type Metric,
  type Range,
} from "./buckets";

// One series of one model over a range: a point per endpoint per time bucket, aggregated in
// PostgreSQL with date_bin. Complete hours already rolled up into EndpointHourly are read from
// there when the bucket is an hour or wider; everything after an endpoint's last rolled hour (and
// every sub-hour bucket) comes from the raw EndpointSample rows. Raw rows older than retention are
// deleted only once their hour is rolled up, so old and new data join without a seam.

interface MetricColumns {
  kind: "float" | "price";
  unit: string;
  raw: string;
  mean: string | null;
  min: string;
  max: string;
  /** Prices: the hourly column holding the hour's last price (the price in effect at its end). */
  last: string | null;
}

// Identifiers spliced into SQL: fixed here, selected by a Metric that zod already whitelisted.
const COLUMNS: Record<Metric, MetricColumns> = {
  uptime30m: { kind: "float", unit: "%", raw: "uptime30m", mean: "uptime30mMean", min: "uptime30mMin", max: "uptime30mMax", last: null },
  latencyP50: { kind: "float", unit: "ms", raw: "latencyP50", mean: "latencyP50Mean", min: "latencyP50Mean", max: "latencyP50Mean", last: null },
  throughputP50: { kind: "float", unit: "tokens/s", raw: "throughputP50", mean: "throughputP50Mean", min: "throughputP50Mean", max: "throughputP50Mean", last: null },
  inputPrice: { kind: "price", unit: "USD/M", raw: "inputPricePerM", mean: null, min: "inputPriceMin", max: "inputPriceMax", last: "inputPriceLast" },
  outputPrice: { kind: "price", unit: "USD/M", raw: "outputPricePerM", mean: null, min: "outputPriceMin", max: "outputPriceMax", last: "outputPriceLast" },
};

/**
 * What a point's value is. A price is a step: what was charged at the end of the bucket is the
 * price in effect (its last poll), and the bucket's min and max say whether it moved within it.
 * The other metrics are rates measured over a window, so their polls are averaged; a bucket whose
 * polls all agree answers that exact value (never an average's float noise).
 */
export type SeriesAggregate = "last" | "mean";

export function aggregateOf(metric: Metric): SeriesAggregate {
  return COLUMNS[metric].kind === "price" ? "last" : "mean";
}

const col = (table: string, name: string) => Prisma.raw(`${table}."${name}"`);

export type SeriesValue = number | string;

export interface EndpointSeries {
  tag: string;
  provider: string;
  /** Float metrics carry numbers; prices carry exact decimal strings (USD per million tokens). */
  points: BucketPoint<SeriesValue>[];
}

export interface Series {
  metric: Metric;
  range: Range;
  bucket: Bucket;
  bucketSeconds: number;
  unit: string;
  /** "last": each point is the bucket's last poll (prices); "mean": the mean of its polls. Both with the bucket's min and max. */
  aggregate: SeriesAggregate;
  from: string;
  to: string;
  endpoints: EndpointSeries[];
}

/** A bucket as [start in epoch ms, polls, value, min, max]; float8 for floats, text for prices. */
type PointTuple = [number, number, number | string | null, number | string | null, number | string | null];

interface Row {
  eid: number;
  points: PointTuple[];
}

export interface SeriesOptions {
  now?: Date;
  bucket?: Bucket;
}

/** The series of one metric for a watched model, or null when the model is not watched. */
export async function modelSeries(db: Db, modelId: string, metric: Metric, range: Range, options: SeriesOptions = {}): Promise<Series | null> {
  const model = await findWatchedModel(db, modelId);
  if (!model) return null;
  const { bucket, seconds } = bucketFor(range, options.bucket);
  const { from, to } = rangeWindow(range, seconds, options.now ?? new Date());
  const c = COLUMNS[metric];
  const useHourly = seconds >= 3600;

  const rawValue = col("s", c.raw);
  // Prices stay exact (numeric); the other metrics are floats and aggregate as such.
  const bound = Prisma.raw(c.kind === "price" ? "numeric" : "float8");
  // Each part is a LATERAL subquery per endpoint (OFFSET 0 keeps the planner from flattening it),
  // so both tables are read by primary-key range scans: with a join instead, PostgreSQL could not
  // estimate the per-endpoint bounds and chose sequential scans of the whole table.
  const rawPart = Prisma.sql`
    SELECT p.* FROM eps CROSS JOIN LATERAL (
      SELECT s."endpointId" AS eid, s."observedAt" AS ts, 1 AS n, (${rawValue} IS NOT NULL)::int AS vn,
             ${rawValue}::float8 AS vsum, ${rawValue}::${bound} AS lo, ${rawValue}::${bound} AS hi, ${rawValue}::${bound} AS last
        FROM "EndpointSample" s
       WHERE s."endpointId" = eps.id AND s."observedAt" < ${to}
         AND s."observedAt" >= ${useHourly ? Prisma.sql`greatest(${from}::timestamptz, eps.rolled + interval '1 hour')` : Prisma.sql`${from}::timestamptz`}
      OFFSET 0) p`;
  const hourlyMean = c.mean ? col("h", c.mean) : Prisma.sql`NULL::float8`;
  // Hours rolled up before the last price was kept have none: their max stands in (README, History).
  const hourlyLast = c.last ? Prisma.sql`coalesce(${col("h", c.last)}, ${col("h", c.max)})` : col("h", c.max);
  const hourlyPart = Prisma.sql`
    SELECT p.* FROM eps CROSS JOIN LATERAL (
      SELECT h."endpointId" AS eid, h.hour AS ts, h.count AS n,
             CASE WHEN ${col("h", c.mean ?? c.max)} IS NULL THEN 0 ELSE h.count END AS vn,
             ${hourlyMean}::float8 * h.count AS vsum, ${col("h", c.min)}::${bound} AS lo, ${col("h", c.max)}::${bound} AS hi,
             ${hourlyLast}::${bound} AS last
        FROM "EndpointHourly" h
       WHERE h."endpointId" = eps.id AND h.hour >= ${from} AND h.hour < ${to}
      OFFSET 0) p
     UNION ALL`;

  const rows = await db.$queryRaw<Row[]>`
    WITH eps AS (
      SELECT e.id, (SELECT max(x.hour) FROM "EndpointHourly" x WHERE x."endpointId" = e.id) AS rolled
        FROM "Endpoint" e WHERE e."modelId" = ${modelId}
    ), parts AS (
      ${useHourly ? hourlyPart : Prisma.empty}
      ${rawPart}
    ), buckets AS (
      SELECT eid, date_bin(${seconds}::int * interval '1 second', ts, ${BUCKET_ORIGIN}::timestamptz) AS t,
             sum(n)::int AS polls, (sum(vsum) / nullif(sum(vn), 0))::float8 AS mean,
             min(lo) AS lo, max(hi) AS hi,
             -- The newest value in the bucket (hourly rows come before the raw rows after them).
             (array_agg(last ORDER BY ts DESC) FILTER (WHERE last IS NOT NULL))[1] AS last
        FROM parts GROUP BY 1, 2
    )
    -- One row per endpoint carrying its buckets as JSON: far cheaper to hand over than a row per bucket.
    SELECT eid, json_agg(json_build_array((extract(epoch FROM t) * 1000)::bigint, polls,
             ${c.kind === "price" ? Prisma.sql`last::text, lo::text, hi::text` : Prisma.sql`CASE WHEN lo = hi THEN lo ELSE mean END, lo, hi`}) ORDER BY t) AS points
      FROM buckets GROUP BY eid`;

  // Only the endpoints with a poll in the window get a line; names are read once, not per row.
  const rowsByEndpoint = new Map(rows.map((r) => [r.eid, r.points]));
  const names = rowsByEndpoint.size
    ? await db.endpoint.findMany({ where: { id: { in: [...rowsByEndpoint.keys()] } }, select: { id: true, tag: true, providerName: true }, orderBy: { tag: "asc" } })
    : [];
  const price = (v: number | string | null) => priceString(v === null ? null : String(v));
  const float = (v: number | string | null) => (v === null ? null : Number(v));
  const endpoints = names.map(({ id, tag, providerName }) => ({
    tag,
    provider: providerName,
    points: fillBuckets<SeriesValue>(
      (rowsByEndpoint.get(id) ?? []).map(([t, polls, value, lo, hi]) =>
        c.kind === "price"
          ? { t: new Date(t), value: price(value), min: price(lo), max: price(hi), polls }
          : { t: new Date(t), value: float(value), min: float(lo), max: float(hi), polls },
      ),
      from,
      to,
      seconds,
    ),
  }));
  return {
    metric,
    range,
    bucket,
    bucketSeconds: seconds,
    unit: c.unit,
    aggregate: aggregateOf(metric),
    from: from.toISOString(),
    to: to.toISOString(),
    endpoints,
  };
}
