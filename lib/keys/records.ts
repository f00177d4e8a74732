import "server-only";
import Decimal from "decimal.js";
import type { Db } from "../db/engines";
import type { ManagedKey } from "../openrouter/management";
import { publishWritten } from "../reactions/publish";
import { currentPipelineKey } from "./pipeline-key";

// What the dashboard stores about OpenRouter keys: which key is the pipeline's (by hash only),
// every change made to a key (who, when, before, after), and the pipeline key's usage over time.

export type KeyChangeAction = "limit" | "disabled" | "created" | "pipeline_key";

export interface KeyChangeEntry {
  at: string;
  actor: string;
  keyHash: string;
  keyName: string;
  action: KeyChangeAction;
  before: string | null;
  after: string | null;
}

export async function recordKeyChange(db: Db, entry: Omit<KeyChangeEntry, "at">, at = new Date()): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.keyChange.create({ data: { ...entry, at } });
    await publishWritten(tx, { kind: "key-change", keyHash: entry.keyHash, action: entry.action, observedAt: at });
  });
}

export async function recentKeyChanges(db: Db, limit = 50): Promise<KeyChangeEntry[]> {
  const rows = await db.keyChange.findMany({ orderBy: [{ at: "desc" }, { id: "desc" }], take: Math.min(200, limit) });
  return rows.map((r) => ({ ...r, at: r.at.toISOString(), action: r.action as KeyChangeAction }));
}

// Kept here too for the callers that read it with the records (the spend page's sections).
export { currentPipelineKey, type PipelineKeyChoice } from "./pipeline-key";

export async function choosePipelineKey(db: Db, key: { hash: string; name: string }, actor: string): Promise<void> {
  const before = await currentPipelineKey(db);
  if (before?.hash === key.hash) return;
  const at = new Date();
  await db.$transaction(async (tx) => {
    await tx.pipelineKey.create({ data: { keyHash: key.hash, name: key.name } });
    await tx.keyChange.create({
      data: { actor, at, keyHash: key.hash, keyName: key.name, action: "pipeline_key", before: before ? `${before.name} (${short(before.hash)})` : null, after: `${key.name} (${short(key.hash)})` },
    });
    await publishWritten(tx, { kind: "key-change", keyHash: key.hash, action: "pipeline_key", observedAt: at });
  });
}

export function short(hash: string): string {
  return hash.slice(0, 8);
}

const dec = (v: string | null | undefined) => (v === null || v === undefined ? null : new Decimal(v));

/** Stores what OpenRouter said about the pipeline key just now. */
export async function recordKeyUsage(db: Db, key: ManagedKey, demo: boolean, observedAt = new Date()): Promise<void> {
  await db.$transaction(async (tx) => {
    const row = await tx.keyUsageSnapshot.create({
      data: {
        keyHash: key.hash,
        observedAt,
        usage: new Decimal(key.usage),
        usageDaily: dec(key.usage_daily),
        limit: dec(key.limit),
        limitRemaining: dec(key.limit_remaining),
        limitReset: key.limit_reset ?? null,
        disabled: key.disabled,
        demo,
      },
    });
    // What reacts to it (the pipeline key's limit alert) runs in this transaction.
    await publishWritten(tx, { kind: "key-usage", hash: key.hash, name: key.name, limitRemaining: row.limitRemaining?.toString() ?? null, demo, observedAt });
  });
}

/** A limit for people: "$100.00", or "no limit". */
export function describeLimit(limit: string | null): string {
  return limit === null ? "no limit" : `$${new Decimal(limit).toFixed(2)}`;
}

/** A limit and its reset for people: "$5.00, resets daily", or "$100.00" when it never resets. */
export function describeLimitAndReset(key: { limit: string | null; limit_reset?: string | null }): string {
  return key.limit_reset ? `${describeLimit(key.limit)}, resets ${key.limit_reset}` : describeLimit(key.limit);
}
