import "server-only";
import { schedulerState } from "../poller/service";
import { snapshotVersion, type SnapshotIdentity } from "../snapshot-version";
import { watchedModelsForView } from "./cached";

// The cheap answer a model page watches to learn that a newer snapshot exists: the last poll of
// the model (from the shared watched-models read, one query for every model) and this process's
// scheduler.

export interface LatestPoll extends SnapshotIdentity {
  modelId: string;
  version: string;
  scheduler: { intervalSeconds: number; nextPollAt: string | null };
}

export async function latestPollFor(modelId: string): Promise<LatestPoll | null> {
  const model = (await watchedModelsForView()).find((m) => m.id === modelId);
  if (!model) return null;
  const identity: SnapshotIdentity = {
    polledAt: model.lastSuccessAt,
    failedAt: model.lastPoll && !model.lastPoll.ok ? model.lastPoll.at : null,
  };
  return { modelId, ...identity, version: snapshotVersion(identity), scheduler: schedulerState() };
}
