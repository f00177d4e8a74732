import "server-only";
import { getDb } from "../database";
import type { ChangeQuery } from "../history/change-log";
import { listChanges } from "../history/change-log";
import type { Bucket, Metric, Range } from "../history/buckets";
import { modelSeries } from "../history/series";
import { toWire } from "../history/series-wire";
import { listViews } from "../saved-views";
import { compare, readComparisonData, type Comparison } from "./comparison";
import { memo, READ_REUSE_MS } from "./memo";
import { listWatchedModels, type WatchedModelSummary } from "./models";
import { latestProviders, type ProvidersSnapshot } from "./providers";

// The read queries of the model pages and their APIs as those call them: on the process's
// database, shared between viewers (see memo.ts). Stored data changes only when this process
// writes (which clears the memo) or, with several instances on one server database, when another
// instance does: READ_REUSE_MS bounds how late that shows. Under a crowd of viewers the database
// then answers each of these once per READ_REUSE_MS instead of once per request.

export function watchedModelsForView(): Promise<WatchedModelSummary[]> {
  return memo("watched-models", async () => listWatchedModels(await getDb()), READ_REUSE_MS);
}

export function latestProvidersForView(modelId: string): Promise<ProvidersSnapshot | null> {
  return memo(`providers:${modelId}`, async () => latestProviders(await getDb(), modelId), READ_REUSE_MS);
}

/** The comparison under a link's rules: the stored facts are shared, the verdicts are the link's own. */
export async function comparisonForView(
  modelId: string,
  params: Record<string, string | string[] | undefined> | URLSearchParams,
): Promise<Comparison | null> {
  const data = await memo(`comparison:${modelId}`, async () => readComparisonData(await getDb(), modelId), READ_REUSE_MS);
  return data && compare(data, params);
}

export function viewsForModel(modelId: string) {
  return memo(`views:${modelId}`, async () => listViews(await getDb(), modelId), READ_REUSE_MS);
}

export function seriesForView(modelId: string, metric: Metric, range: Range, bucket: Bucket | undefined) {
  return memo(
    `series:${modelId}:${metric}:${range}:${bucket ?? ""}`,
    async () => {
      const series = await modelSeries(await getDb(), modelId, metric, range, { bucket });
      return series && toWire(series); // shared in the form the API sends
    },
    READ_REUSE_MS,
  );
}

export function changesForView(modelId: string, query: ChangeQuery) {
  return memo(`changes:${modelId}:${JSON.stringify(query)}`, async () => listChanges(await getDb(), modelId, query), READ_REUSE_MS);
}
