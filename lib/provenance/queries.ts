import "server-only";
import Decimal from "decimal.js";
import { Prisma } from "../db/generated/client";
import type { Dataset } from "../budget/cost";
import type { Db } from "../db/engines";
import { PROVENANCE_CLASSES, type ProvenanceClass } from "./judge";

// What the provenance page and export read, aggregated in SQL over the stored judgements: samples,
/** The provider column of records imported with only their generation id, until the lookup answers. */
export const NOT_LOOKED_UP = "(not yet looked up)";

// tokens and cost per class, per provider and per UTC day, for one dataset or all of them.

export interface ClassTotals {
  class: ProvenanceClass;
  samples: number;
  inputTokens: string;
  outputTokens: string;
  costUsd: string;
  /** When this class was last computed for any generation in it (ISO); null: none in it. */
  computedAt: string | null;
}

export interface ProvenanceSummary {
  dataset: string | null;
  totals: ClassTotals[];
  byProvider: Array<{ provider: string; class: ProvenanceClass; samples: number; outputTokens: string }>;
  byDay: Array<{ day: string; class: ProvenanceClass; samples: number; outputTokens: string }>;
  /** Records imported but not judged yet (none, once each import's pass has run). */
  unjudged: number;
  /** What was paid for the generations to drop (suspect and excluded). */
  dropCostUsd: string;
  /** Trusted output tokens of the plan's datasets over their planned output tokens, percent (one decimal). */
  planTrustedPercent: string | null;
  planOutputTokens: number;
  planTrustedOutputTokens: string;
}

/** "" stands for the records without a dataset, as the export's `dataset=` does. */
function datasetFilter(dataset: string | null): Prisma.Sql {
  return dataset === null ? Prisma.empty : Prisma.sql`AND COALESCE(r.dataset, '') = ${dataset}`;
}

export async function listDatasets(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ dataset: string }>>`
    SELECT DISTINCT COALESCE(dataset, '') AS dataset FROM "UsageRecord" ORDER BY 1`;
  return rows.map((r) => r.dataset);
}

export async function provenanceSummary(db: Db, dataset: string | null, plan: Dataset[]): Promise<ProvenanceSummary> {
  const filter = datasetFilter(dataset);
  const [totals, byProvider, byDay, [unjudged], planRows] = await Promise.all([
    db.$queryRaw<Array<{ class: ProvenanceClass; samples: number; input_tokens: string; output_tokens: string; cost: string; computed_at: Date }>>`
      SELECT j.class, count(*)::int AS samples, sum(r."inputTokens")::text AS input_tokens,
             sum(r."outputTokens")::text AS output_tokens, sum(r."costUsd")::text AS cost, max(j."judgedAt") AS computed_at
        FROM "ProvenanceJudgement" j JOIN "UsageRecord" r ON r.id = j."recordId"
       WHERE true ${filter}
       GROUP BY j.class`,
    db.$queryRaw<Array<{ provider: string; class: ProvenanceClass; samples: number; output_tokens: string }>>`
      SELECT COALESCE(r.provider, ${NOT_LOOKED_UP}) AS provider, j.class, count(*)::int AS samples, sum(r."outputTokens")::text AS output_tokens
        FROM "ProvenanceJudgement" j JOIN "UsageRecord" r ON r.id = j."recordId"
       WHERE true ${filter}
       GROUP BY 1, j.class
       ORDER BY 1, j.class`,
    db.$queryRaw<Array<{ day: Date | null; class: ProvenanceClass; samples: number; output_tokens: string }>>`
      SELECT date_trunc('day', r."occurredAt" AT TIME ZONE 'UTC') AS day, j.class, count(*)::int AS samples,
             sum(r."outputTokens")::text AS output_tokens
        FROM "ProvenanceJudgement" j JOIN "UsageRecord" r ON r.id = j."recordId"
       WHERE true ${filter}
       GROUP BY 1, j.class
       ORDER BY 1, j.class`,
    db.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM "UsageRecord" r
       WHERE NOT EXISTS (SELECT 1 FROM "ProvenanceJudgement" j WHERE j."recordId" = r.id) ${filter}`,
    db.$queryRaw<Array<{ dataset: string; output_tokens: string }>>`
      SELECT r.dataset, sum(r."outputTokens")::text AS output_tokens
        FROM "ProvenanceJudgement" j JOIN "UsageRecord" r ON r.id = j."recordId"
       WHERE j.class = 'trusted' AND r.dataset IN (${Prisma.join(plan.length ? plan.map((d) => d.name) : [""])}) ${filter}
       GROUP BY r.dataset`,
  ]);
  const byClass = new Map(totals.map((t) => [t.class, t]));
  const scopedPlan = dataset === null ? plan : plan.filter((d) => d.name === dataset);
  const planOutput = scopedPlan.reduce((s, d) => s + d.outputTokens, 0);
  const trustedPlan = planRows.reduce((s, r) => s.plus(r.output_tokens), new Decimal(0));
  const drop = ["suspect", "excluded"].reduce((s, c) => s.plus(byClass.get(c as ProvenanceClass)?.cost ?? 0), new Decimal(0));
  return {
    dataset,
    totals: PROVENANCE_CLASSES.map((c) => {
      const t = byClass.get(c);
      return {
        class: c,
        samples: t?.samples ?? 0,
        inputTokens: t?.input_tokens ?? "0",
        outputTokens: t?.output_tokens ?? "0",
        costUsd: new Decimal(t?.cost ?? 0).toFixed(2),
        computedAt: t ? t.computed_at.toISOString() : null,
      };
    }),
    byProvider: byProvider.map((r) => ({ provider: r.provider, class: r.class, samples: r.samples, outputTokens: r.output_tokens })),
    byDay: byDay.map((r) => ({ day: r.day ? r.day.toISOString().slice(0, 10) : "no time", class: r.class, samples: r.samples, outputTokens: r.output_tokens })),
    unjudged: unjudged.n,
    dropCostUsd: drop.toFixed(2),
    planTrustedPercent: planOutput > 0 ? trustedPlan.div(planOutput).times(100).toFixed(1) : null,
    planOutputTokens: planOutput,
    planTrustedOutputTokens: trustedPlan.toFixed(0),
  };
}

export interface ExportRow {
  id: string;
  dataset: string | null;
  provider: string;
  tag: string | null;
  occurredAt: string | null;
  class: ProvenanceClass;
  reasons: string[];
}

/**
 * The generations of one class (and dataset), in id-ordered pages: the export streams these, so
 * memory holds one page whatever the total. The id is the generation id the pipeline recorded, or
 * the record's dedupe key (sha256:…) when it recorded none.
 */
export async function* exportRows(db: Db, cls: ProvenanceClass, dataset: string | null, withReasons = true, pageSize = 5_000): AsyncGenerator<ExportRow[]> {
  let last = 0;
  const filter = datasetFilter(dataset);
  for (;;) {
    const rows = await db.$queryRaw<Array<{ rid: number; key: string; dataset: string | null; provider: string; tag: string | null; occurred_at: Date | null; reasons: string[] }>>`
      SELECT j."recordId" AS rid, r."dedupeKey" AS key, r.dataset, r.provider, j.tag, r."occurredAt" AS occurred_at,
             ${withReasons ? Prisma.sql`j.reasons` : Prisma.sql`ARRAY[]::text[]`} AS reasons
        FROM "ProvenanceJudgement" j JOIN "UsageRecord" r ON r.id = j."recordId"
       WHERE j.class = ${cls} AND j."recordId" > ${last} ${filter}
       ORDER BY j."recordId"
       LIMIT ${pageSize}`;
    if (rows.length === 0) return;
    last = rows[rows.length - 1].rid;
    yield rows.map((r) => ({
      id: r.key.startsWith("id:") ? r.key.slice(3) : r.key,
      dataset: r.dataset,
      provider: r.provider,
      tag: r.tag,
      occurredAt: r.occurred_at?.toISOString() ?? null,
      class: cls,
      reasons: r.reasons,
    }));
  }
}
