import "server-only";
import Decimal from "decimal.js";
import type { Db } from "../db/engines";
import type { ActivityRow, ManagementClient } from "../openrouter/management";
import { currentPipelineKey } from "../keys/pipeline-key";
import { recordKeyUsage } from "../keys/records";

// Reads OpenRouter's /activity (the last 30 completed UTC days, and today's rows while it lasts)
// and stores it per day, model and endpoint. A day that comes back replaces what was stored for it,
// in one transaction, so importing the same day twice changes nothing and a failed read changes
// nothing at all. Every attempt is recorded: the page says when the last one worked, or why not.

export const ACTIVITY_INTERVAL_MS = 3_600_000;

export interface ActivityImportResult {
  days: number;
  rows: number;
}

interface StoredRow {
  date: Date;
  model: string;
  endpointId: string;
  modelPermaslug: string | null;
  providerName: string;
  usageUsd: Decimal;
  byokUsageUsd: Decimal | null;
  requests: number;
  promptTokens: bigint;
  completionTokens: bigint;
  reasoningTokens: bigint;
  fetchedAt: Date;
  demo: boolean;
}

/** One row per day, model and endpoint (OpenRouter's own grain; duplicates, if any, are summed). */
export function rowsByDay(rows: ActivityRow[], fetchedAt: Date, demo: boolean): Map<string, StoredRow[]> {
  const byKey = new Map<string, StoredRow>();
  for (const r of rows) {
    const key = `${r.date}|${r.model}|${r.endpoint_id}`;
    const existing = byKey.get(key);
    if (existing) {
      existing.usageUsd = existing.usageUsd.plus(r.usage);
      existing.byokUsageUsd = (existing.byokUsageUsd ?? new Decimal(0)).plus(r.byok_usage_inference ?? 0);
      existing.requests += r.requests;
      existing.promptTokens += BigInt(r.prompt_tokens);
      existing.completionTokens += BigInt(r.completion_tokens);
      existing.reasoningTokens += BigInt(r.reasoning_tokens ?? 0);
      continue;
    }
    byKey.set(key, {
      date: new Date(`${r.date}T00:00:00Z`),
      model: r.model,
      endpointId: r.endpoint_id,
      modelPermaslug: r.model_permaslug ?? null,
      providerName: r.provider_name,
      usageUsd: new Decimal(r.usage),
      byokUsageUsd: r.byok_usage_inference === null ? null : new Decimal(r.byok_usage_inference),
      requests: r.requests,
      promptTokens: BigInt(r.prompt_tokens),
      completionTokens: BigInt(r.completion_tokens),
      reasoningTokens: BigInt(r.reasoning_tokens ?? 0),
      fetchedAt,
      demo,
    });
  }
  const days = new Map<string, StoredRow[]>();
  for (const row of byKey.values()) {
    const day = row.date.toISOString().slice(0, 10);
    days.set(day, [...(days.get(day) ?? []), row]);
  }
  return days;
}

export async function importActivity(db: Db, client: ManagementClient, now = new Date()): Promise<ActivityImportResult> {
  let fetched;
  try {
    fetched = await client.activity();
  } catch (err) {
    await db.activityFetch.create({ data: { startedAt: now, ok: false, error: (err as Error).message.slice(0, 500) } });
    throw err;
  }
  const days = rowsByDay(fetched.data, now, fetched.demo);
  const writes = [...days.entries()].flatMap(([day, rows]) => [
    db.activityDay.deleteMany({ where: { date: new Date(`${day}T00:00:00Z`) } }),
    db.activityDay.createMany({ data: rows }),
  ]);
  const rowCount = [...days.values()].reduce((n, rows) => n + rows.length, 0);
  await db.$transaction([...writes, db.activityFetch.create({ data: { startedAt: now, ok: true, days: days.size, rows: rowCount } })]);
  return { days: days.size, rows: rowCount };
}

/** True when the last attempt (worked or not) is less than an hour old: /activity is read hourly. */
export async function activityReadRecently(db: Db, now = new Date()): Promise<boolean> {
  const last = await db.activityFetch.findFirst({ orderBy: { startedAt: "desc" }, select: { startedAt: true } });
  return last !== null && now.getTime() - last.startedAt.getTime() < ACTIVITY_INTERVAL_MS && last.startedAt <= now;
}

/**
 * The hourly work of the poll cycle's after-cycle step: the activity, and the pipeline key's usage
 * (its own view of the money, for the reconciliation). Returns null when it was not yet time.
 */
export async function hourlyManagementRead(db: Db, client: ManagementClient, now = new Date()): Promise<ActivityImportResult | null> {
  if (await activityReadRecently(db, now)) return null;
  const pipeline = await currentPipelineKey(db);
  if (pipeline) {
    try {
      const key = await client.getKey(pipeline.hash);
      await recordKeyUsage(db, key.data, key.demo, now);
    } catch (err) {
      console.error("[keys] reading the pipeline key failed:", (err as Error).message);
    }
  }
  return importActivity(db, client, now);
}
