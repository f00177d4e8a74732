import "server-only";
import type { Db } from "../db/engines";
import { OpenRouterError } from "../openrouter/errors";
import type { OpenRouterClient } from "../openrouter/client";
import { claimModel, releaseModel } from "./lease";
import { normaliseEndpoints } from "./normalise";
import { writeSnapshot } from "./store";

// One poll cycle: every active watched model, a few at a time. Each model succeeds or fails on
// its own; every outcome is recorded as a ModelPoll row of the cycle. When the database goes away
// mid-cycle, what could not be written (failure records, lease releases, the cycle's end) is kept
// in memory and written at the start of the next cycle on the same client, once it is back.

export interface ModelOutcome {
  id: string;
  ok: boolean;
  endpoints: number;
  attempts: number;
  skipped?: boolean;
  error?: string;
}

export interface CycleResult {
  cycleId: number;
  startedAt: string;
  finishedAt: string;
  models: ModelOutcome[];
}

export interface CycleOptions {
  trigger: string;
  concurrency?: number;
  /** Hook run after the models are polled (spend snapshots, roll-ups), errors reported not thrown. */
  afterModels?: (cycleId: number) => Promise<void>;
  /** How long a model's poll lease lasts (a killed poller's lease frees itself after this). */
  leaseSeconds?: number;
  /** Uptime (%) whose crossing is logged as a change (default 95). */
  uptimeThreshold?: number;
}

interface FailureRecord {
  cycleId: number;
  modelId: string;
  startedAt: Date;
  attempts: number;
  errorKind: string;
  error: string;
  finishedAt: Date;
}

type PendingWrite =
  | { kind: "failure"; record: FailureRecord }
  | { kind: "release"; modelId: string; lease: Date }
  | { kind: "finish"; cycleId: number; finishedAt: Date };

const pendingWrites = new WeakMap<Db, PendingWrite[]>();

function defer(db: Db, write: PendingWrite): void {
  const list = pendingWrites.get(db) ?? [];
  list.push(write);
  pendingWrites.set(db, list);
}

/** Writes what an earlier cycle could not; throws (keeping the rest) while the database is down. */
export async function flushPendingWrites(db: Db): Promise<number> {
  const list = pendingWrites.get(db) ?? [];
  let written = 0;
  while (list.length) {
    const write = list[0];
    if (write.kind === "failure") await db.modelPoll.create({ data: { ...write.record, ok: false } });
    else if (write.kind === "release") await releaseModel(db, write.modelId, write.lease);
    else await db.pollCycle.updateMany({ where: { id: write.cycleId, finishedAt: null }, data: { finishedAt: write.finishedAt } });
    list.shift();
    written++;
  }
  if (written) console.warn(`[poll] wrote ${written} record(s) left over from a cycle that lost the database`);
  return written;
}

export async function runPollCycle(db: Db, client: OpenRouterClient, options: CycleOptions): Promise<CycleResult> {
  await flushPendingWrites(db);
  const startedAt = new Date();
  const cycle = await db.pollCycle.create({ data: { trigger: options.trigger, startedAt }, select: { id: true } });
  const models = await db.watchedModel.findMany({ where: { active: true }, select: { id: true }, orderBy: { id: "asc" } });

  const outcomes: ModelOutcome[] = new Array(models.length);
  let next = 0;
  const worker = async () => {
    while (next < models.length) {
      const index = next++;
      outcomes[index] = await pollModel(db, client, cycle.id, models[index].id, options.leaseSeconds, options.uptimeThreshold);
    }
  };
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 4, models.length || 1));
  await Promise.all(Array.from({ length: concurrency }, worker));

  if (options.afterModels) {
    await options.afterModels(cycle.id).catch((err) => console.error("[poll] after-cycle step failed:", err));
  }
  const finishedAt = new Date();
  await db.pollCycle.update({ where: { id: cycle.id }, data: { finishedAt } }).catch((err) => {
    console.error(`[poll] could not record the end of cycle ${cycle.id}:`, reason(err));
    defer(db, { kind: "finish", cycleId: cycle.id, finishedAt });
  });
  return { cycleId: cycle.id, startedAt: startedAt.toISOString(), finishedAt: finishedAt.toISOString(), models: outcomes };
}

async function pollModel(
  db: Db,
  client: OpenRouterClient,
  cycleId: number,
  modelId: string,
  leaseSeconds?: number,
  uptimeThreshold?: number,
): Promise<ModelOutcome> {
  const startedAt = new Date();
  let lease: Date | null;
  try {
    lease = await claimModel(db, modelId, leaseSeconds);
  } catch (err) {
    const error = `Could not take the poll lease: ${reason(err)}`;
    await recordFailure(db, { cycleId, modelId, startedAt, attempts: 0, errorKind: "storage", error });
    return { id: modelId, ok: false, endpoints: 0, attempts: 0, error };
  }
  if (!lease) {
    const error = "Skipped: another poll of this model is in progress";
    await recordFailure(db, { cycleId, modelId, startedAt, attempts: 0, errorKind: "skipped", error });
    return { id: modelId, ok: false, skipped: true, endpoints: 0, attempts: 0, error };
  }
  let attempts = 0;
  try {
    const fetched = await client.endpoints(modelId);
    attempts = fetched.attempts;
    if (fetched.data.data.endpoints.length === 0) {
      throw new OpenRouterError("empty", "OpenRouter answered with an empty endpoint list", attempts);
    }
    const snapshot = normaliseEndpoints(fetched.data);
    await writeSnapshot(db, snapshot, {
      cycleId,
      modelId,
      startedAt,
      observedAt: new Date(),
      attempts,
      demo: fetched.demo,
      raw: fetched.raw,
      rawJson: JSON.parse(fetched.raw),
      uptimeThreshold,
    });
    return { id: modelId, ok: true, endpoints: snapshot.endpoints.length, attempts };
  } catch (err) {
    const known = err instanceof OpenRouterError;
    attempts = known ? err.attempts : attempts;
    const errorKind = known ? err.kind : "storage";
    const error = known ? err.message : `Could not store the snapshot: ${reason(err)}`;
    await recordFailure(db, { cycleId, modelId, startedAt, attempts, errorKind, error });
    const held = lease;
    await releaseModel(db, modelId, held).catch(() => defer(db, { kind: "release", modelId, lease: held }));
    return { id: modelId, ok: false, endpoints: 0, attempts, error };
  }
}

async function recordFailure(
  db: Db,
  f: Omit<FailureRecord, "finishedAt">,
): Promise<void> {
  const record: FailureRecord = { ...f, finishedAt: new Date() };
  try {
    await db.modelPoll.create({ data: { ...record, ok: false } });
  } catch (err) {
    console.error(`[poll] could not record the failure of ${f.modelId} (kept until the database is back):`, reason(err));
    defer(db, { kind: "failure", record });
  }
}

/** The cause of a database error in one line (Prisma's messages open with a code frame). */
function reason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const lines = message.split("\n").map((l) => l.trim()).filter(Boolean);
  return (lines[lines.length - 1] ?? "unknown error").slice(0, 300);
}
