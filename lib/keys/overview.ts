import "server-only";
import Decimal from "decimal.js";
import type { Db } from "../db/engines";
import type { ManagedKey, ManagementClient } from "../openrouter/management";
import { currentPipelineKey, type PipelineKeyChoice } from "./pipeline-key";
import { recentKeyChanges, type KeyChangeEntry } from "./records";

/** A key as OpenRouter reports it: what the keys table draws. */
export type { ManagedKey };

// What the spend page's "Keys" section shows: the account's keys as OpenRouter reports them now,
// the pipeline key, the change log, and — when OpenRouter cannot be read — the last figures stored.

export interface LastKeyReading {
  observedAt: string;
  usage: string;
  limit: string | null;
  limitRemaining: string | null;
  limitReset: string | null;
  disabled: boolean;
}

export interface KeysOverview {
  keys: ManagedKey[] | null;
  /** Why the keys could not be read from OpenRouter just now, or null. */
  readError: string | null;
  /** When this reading of OpenRouter's key API started (ISO): what the page shows is from then or later. */
  readAt: string;
  demo: boolean;
  pipeline: PipelineKeyChoice | null;
  /** The pipeline key as just read, or null (not chosen, gone, or unreadable). */
  pipelineKey: ManagedKey | null;
  /** The pipeline key as last stored: shown when OpenRouter cannot be read. */
  lastReading: LastKeyReading | null;
  changes: KeyChangeEntry[];
}

export async function keysOverview(db: Db, client: ManagementClient): Promise<KeysOverview> {
  const [pipeline, changes] = await Promise.all([currentPipelineKey(db), recentKeyChanges(db, 20)]);
  let keys: ManagedKey[] | null = null;
  let readError: string | null = null;
  let demo = false;
  const readAt = new Date().toISOString();
  try {
    const fetched = await client.listKeys();
    keys = fetched.data;
    demo = fetched.demo;
  } catch (err) {
    readError = (err as Error).message;
  }
  const lastRow = pipeline
    ? await db.keyUsageSnapshot.findFirst({ where: { keyHash: pipeline.hash }, orderBy: [{ observedAt: "desc" }, { id: "desc" }] })
    : null;
  const text = (v: Decimal | { toString(): string } | null) => (v === null ? null : new Decimal(v.toString()).toString());
  return {
    keys,
    readError,
    readAt,
    demo,
    pipeline,
    pipelineKey: (pipeline && keys?.find((k) => k.hash === pipeline.hash)) || null,
    lastReading: lastRow
      ? { observedAt: lastRow.observedAt.toISOString(), usage: text(lastRow.usage) as string, limit: text(lastRow.limit), limitRemaining: text(lastRow.limitRemaining), limitReset: lastRow.limitReset, disabled: lastRow.disabled }
      : null,
    changes,
  };
}
