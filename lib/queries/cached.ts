import "server-only";
import { getDb } from "../db/client";
import { memo } from "./memo";
import { listWatchedModels, type WatchedModelSummary } from "./models";
import { latestProviders, type ProvidersSnapshot } from "./providers";

// The hot read queries as pages and API routes call them: on the process's database, in single
// flight (see memo.ts), so many viewers at once share one query instead of queueing many.

export function watchedModelsForView(): Promise<WatchedModelSummary[]> {
  return memo("watched-models", async () => listWatchedModels(await getDb()));
}

export function latestProvidersForView(modelId: string): Promise<ProvidersSnapshot | null> {
  return memo(`providers:${modelId}`, async () => latestProviders(await getDb(), modelId));
}
