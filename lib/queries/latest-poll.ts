import "server-only";
import { getDb } from "../database";
import { snapshotVersion, type SnapshotIdentity } from "../snapshot-version";
import { watchedModelsForView } from "./cached";
import { memo, READ_REUSE_MS } from "./memo";

// The cheap answer a model page watches to learn that newer data exists: the last poll of the
// model (from the shared watched-models read, one query for every model), when its latest
// completed probe run finished (the verdicts the rules and badges use), and this process's
// scheduler (handed in by the route, which reads it from lib/jobs/poll.ts: a query does not
// reach up to the processes).

export interface LatestPoll extends SnapshotIdentity {
  modelId: string;
  version: string;
  scheduler: { intervalSeconds: number; nextPollAt: string | null };
}

export async function latestPollFor(modelId: string, scheduler: LatestPoll["scheduler"]): Promise<LatestPoll | null> {
  const model = (await watchedModelsForView()).find((m) => m.id === modelId);
  if (!model) return null;
  const identity: SnapshotIdentity = {
    polledAt: model.lastSuccessAt,
    failedAt: model.lastPoll && !model.lastPoll.ok ? model.lastPoll.at : null,
    verdictsAt: await verdictsAtForView(modelId),
  };
  return { modelId, ...identity, version: snapshotVersion(identity), scheduler };
}

/** When the model's latest completed probe run finished: the run whose verdicts the page shows (the same run latestVerdicts picks). */
function verdictsAtForView(modelId: string): Promise<string | null> {
  return memo(
    `verdicts-at:${modelId}`,
    async () => {
      const run = await (await getDb()).probeRun.findFirst({ where: { modelId, status: "done" }, orderBy: { id: "desc" }, select: { finishedAt: true, createdAt: true } });
      return run ? (run.finishedAt ?? run.createdAt).toISOString() : null;
    },
    READ_REUSE_MS,
  );
}
