import type { Db } from "../db/engines";
import { OpenRouterError } from "../openrouter/errors";
import type { OpenRouterClient } from "../openrouter/client";
import { claimModel, releaseModel } from "./lease";
import { normaliseEndpoints } from "./normalise";
import { writeSnapshot } from "./store";

// One poll cycle: every active watched model, a few at a time. Each model succeeds or fails on
// its own; every outcome is recorded as a ModelPoll row of the cycle.

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
}

export async function runPollCycle(db: Db, client: OpenRouterClient, options: CycleOptions): Promise<CycleResult> {
  const startedAt = new Date();
  const cycle = await db.pollCycle.create({ data: { trigger: options.trigger, startedAt }, select: { id: true } });
  const models = await db.watchedModel.findMany({ where: { active: true }, select: { id: true }, orderBy: { id: "asc" } });

  const outcomes: ModelOutcome[] = new Array(models.length);
  let next = 0;
  const worker = async () => {
    while (next < models.length) {
      const index = next++;
      outcomes[index] = await pollModel(db, client, cycle.id, models[index].id);
    }
  };
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 4, models.length || 1));
  await Promise.all(Array.from({ length: concurrency }, worker));

  if (options.afterModels) {
    await options.afterModels(cycle.id).catch((err) => console.error("[poll] after-cycle step failed:", err));
  }
  const finishedAt = new Date();
  await db.pollCycle.update({ where: { id: cycle.id }, data: { finishedAt } });
  return { cycleId: cycle.id, startedAt: startedAt.toISOString(), finishedAt: finishedAt.toISOString(), models: outcomes };
}

async function pollModel(db: Db, client: OpenRouterClient, cycleId: number, modelId: string): Promise<ModelOutcome> {
  const startedAt = new Date();
  if (!(await claimModel(db, modelId))) {
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
    });
    return { id: modelId, ok: true, endpoints: snapshot.endpoints.length, attempts };
  } catch (err) {
    const known = err instanceof OpenRouterError;
    attempts = known ? err.attempts : attempts;
    const errorKind = known ? err.kind : "storage";
    const error = err instanceof Error ? err.message : String(err);
    await recordFailure(db, { cycleId, modelId, startedAt, attempts, errorKind, error });
    await releaseModel(db, modelId).catch(() => undefined);
    return { id: modelId, ok: false, endpoints: 0, attempts, error };
  }
}

async function recordFailure(
  db: Db,
  f: { cycleId: number; modelId: string; startedAt: Date; attempts: number; errorKind: string; error: string },
): Promise<void> {
  try {
    await db.modelPoll.create({ data: { ...f, finishedAt: new Date(), ok: false } });
  } catch (err) {
    console.error(`[poll] could not record the failure of ${f.modelId}:`, err);
  }
}
