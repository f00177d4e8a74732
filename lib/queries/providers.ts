import "server-only";
import type { Db, DbOrTx } from "../db/engines";
import { priceString } from "../money";
import { findWatchedModel } from "./models";

// The latest successful snapshot of a model, one row per endpoint, and how the polls since went.

export interface ProviderRow {
  tag: string;
  provider: string;
  quantization: string | null;
  inputPricePerM: string | null;
  outputPricePerM: string | null;
  cacheReadPricePerM: string | null;
  status: number | null;
  uptime5m: number | null;
  uptime30m: number | null;
  uptime1d: number | null;
  latencyP50Ms: number | null;
  throughputP50: number | null;
  contextLength: number | null;
  maxCompletionTokens: number | null;
  supportedParameters: string[];
  firstSeenAt: string;
}

export interface ProvidersSnapshot {
  model: { id: string; name: string | null };
  polledAt: string | null;
  demo: boolean;
  /** The most recent poll, when it failed after the snapshot shown was taken. */
  lastFailure: { at: string; errorKind: string | null; error: string | null; attempts: number } | null;
  endpoints: ProviderRow[];
}

interface SampleRow {
  tag: string;
  provider: string;
  first_seen_at: Date;
  quantization: string | null;
  context_length: number | null;
  max_completion_tokens: number | null;
  supported_parameters: string[] | null;
  status: number | null;
  uptime5m: number | null;
  uptime30m: number | null;
  uptime1d: number | null;
  latency_p50: number | null;
  throughput_p50: number | null;
  input_price: string | null;
  output_price: string | null;
  cache_read_price: string | null;
}

export async function latestProviders(db: DbOrTx, modelId: string): Promise<ProvidersSnapshot | null> {
  const model = await findWatchedModel(db, modelId);
  if (!model) return null;
  const [lastGood, lastAny] = await Promise.all([
    db.modelPoll.findFirst({ where: { modelId, ok: true }, orderBy: { startedAt: "desc" } }),
    db.modelPoll.findFirst({
      where: { modelId, OR: [{ errorKind: null }, { errorKind: { not: "skipped" } }] },
      orderBy: { startedAt: "desc" },
    }),
  ]);
  const lastFailure =
    lastAny && !lastAny.ok
      ? { at: lastAny.finishedAt.toISOString(), errorKind: lastAny.errorKind, error: lastAny.error, attempts: lastAny.attempts }
      : null;
  if (!lastGood?.observedAt) {
    return { model, polledAt: null, demo: false, lastFailure, endpoints: [] };
  }
  const rows = await db.$queryRaw<SampleRow[]>`
    SELECT e.tag, e."providerName" AS provider, e."firstSeenAt" AS first_seen_at,
           v.quantization, v."contextLength" AS context_length,
           v."maxCompletionTokens" AS max_completion_tokens, v."supportedParameters" AS supported_parameters,
           s.status, s.uptime5m, s.uptime30m, s.uptime1d,
           s."latencyP50" AS latency_p50, s."throughputP50" AS throughput_p50,
           s."inputPricePerM"::text AS input_price, s."outputPricePerM"::text AS output_price,
           s."cacheReadPricePerM"::text AS cache_read_price
      FROM "Endpoint" e
      JOIN "EndpointSample" s ON s."endpointId" = e.id AND s."observedAt" = ${lastGood.observedAt}
      JOIN "EndpointVersion" v ON v.id = s."versionId"
     WHERE e."modelId" = ${modelId}
     ORDER BY e.tag`;
  return {
    model,
    polledAt: lastGood.observedAt.toISOString(),
    demo: lastGood.demo,
    lastFailure,
    endpoints: rows.map((r) => ({
      tag: r.tag,
      provider: r.provider,
      quantization: r.quantization,
      inputPricePerM: priceString(r.input_price),
      outputPricePerM: priceString(r.output_price),
      cacheReadPricePerM: priceString(r.cache_read_price),
      status: r.status,
      uptime5m: r.uptime5m,
      uptime30m: r.uptime30m,
      uptime1d: r.uptime1d,
      latencyP50Ms: r.latency_p50,
      throughputP50: r.throughput_p50,
      contextLength: r.context_length,
      maxCompletionTokens: r.max_completion_tokens,
      supportedParameters: r.supported_parameters ?? [],
      firstSeenAt: r.first_seen_at.toISOString(),
    })),
  };
}
