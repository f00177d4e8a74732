import "server-only";
import { z } from "zod";
import type { Db } from "../../db/engines";
import { checkUrlReachable, urlProblem } from "../address-guard";
import { newWebhookSecret } from "../sign";
import { CHANNEL_KINDS, CHANNELS, type ChannelKind } from "./index";

// Alert channels as stored: where messages go. A channel's URL and secret stay on the server; what leaves
// it is the ChannelView below, with the URL masked (urlHint). The secret is shown once, in the
// answer that created it, so the receiver can be configured.

const url = z
  .string()
  .trim()
  .max(2000, "must be at most 2000 characters")
  .superRefine((value, ctx) => {
    const problem = urlProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
const name = z.string().trim().min(1, "must not be empty").max(80, "must be at most 80 characters");

export const newChannelInput = z
  .object({
    kind: z.enum(CHANNEL_KINDS, { message: `must be ${CHANNEL_KINDS.join(" or ")}` }),
    name,
    url,
    /** Only for a kind that signs (a webhook); generated when absent. */
    secret: z.string().min(16, "must be at least 16 characters").max(200, "must be at most 200 characters").optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!CHANNELS[v.kind].signed && v.secret !== undefined) ctx.addIssue({ code: "custom", path: ["secret"], message: `a ${CHANNELS[v.kind].label} channel has no secret` });
  });
export type NewChannelInput = z.infer<typeof newChannelInput>;

/** The {id} of a channel route. */
export const channelIdParams = z.object({ id: z.coerce.number({ message: "must be a channel number" }).int().positive("must be a channel number") });

export const channelChange = z
  .object({ name: name.optional(), enabled: z.boolean().optional(), url: url.optional() })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "nothing to change: send name, enabled or url" });
export type ChannelChange = z.infer<typeof channelChange>;

export interface ChannelView {
  id: number;
  kind: ChannelKind;
  name: string;
  urlHint: string;
  enabled: boolean;
  signed: boolean;
  createdAt: string;
}

/** "https://hooks.slack.com/…Xy9z": scheme, host and the last 4 characters, so two URLs can be told apart. */
export function maskUrl(raw: string): string {
  const u = new URL(raw);
  const rest = raw.slice(raw.indexOf(u.host) + u.host.length);
  const tail = rest.replace(/\/+$/, "");
  return tail.length > 4 ? `${u.protocol}//${u.host}/…${tail.slice(-4)}` : `${u.protocol}//${u.host}${tail}`;
}

const viewSelect = { id: true, kind: true, name: true, urlHint: true, enabled: true, secret: true, createdAt: true } as const;
type ViewRow = { id: number; kind: string; name: string; urlHint: string; enabled: boolean; secret: string | null; createdAt: Date };

function toView(row: ViewRow): ChannelView {
  return {
    id: row.id,
    kind: row.kind as ChannelKind,
    name: row.name,
    urlHint: row.urlHint,
    enabled: row.enabled,
    signed: row.secret !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

export class ChannelInputError extends Error {
  constructor(readonly field: string, message: string) {
    super(`${field}: ${message}`);
  }
}

export async function listChannels(db: Db): Promise<ChannelView[]> {
  return (await db.alertChannel.findMany({ select: viewSelect, orderBy: { id: "asc" } })).map(toView);
}

/** Creates a channel once its URL passes the address guard; the secret is returned only here. */
export async function createChannel(
  db: Db,
  input: NewChannelInput,
  { allowPrivate }: { allowPrivate: boolean },
): Promise<{ channel: ChannelView; secret: string | null }> {
  const problem = await checkUrlReachable(input.url, allowPrivate);
  if (problem) throw new ChannelInputError("url", problem);
  const signed = CHANNELS[input.kind].signed;
  const secret = signed ? (input.secret ?? newWebhookSecret()) : null;
  const row = await db.alertChannel.create({
    data: { kind: input.kind, name: input.name, url: input.url, secret, urlHint: maskUrl(input.url) },
    select: viewSelect,
  });
  // A secret the user typed is theirs already: only a generated one is shown.
  return { channel: toView(row), secret: signed && input.secret === undefined ? secret : null };
}

export async function updateChannel(db: Db, id: number, change: ChannelChange, { allowPrivate }: { allowPrivate: boolean }): Promise<ChannelView | null> {
  if (change.url !== undefined) {
    const problem = await checkUrlReachable(change.url, allowPrivate);
    if (problem) throw new ChannelInputError("url", problem);
  }
  const rows = await db.alertChannel.updateManyAndReturn({
    where: { id },
    data: { ...change, ...(change.url !== undefined ? { urlHint: maskUrl(change.url) } : {}) },
    select: viewSelect,
  });
  return rows[0] ? toView(rows[0]) : null;
}

/** Deletes a channel and its delivery history. */
export async function deleteChannel(db: Db, id: number): Promise<boolean> {
  return (await db.alertChannel.deleteMany({ where: { id } })).count > 0;
}

export async function findChannel(db: Db, id: number): Promise<ChannelView | null> {
  const row = await db.alertChannel.findUnique({ where: { id }, select: viewSelect });
  return row ? toView(row) : null;
}
