import "server-only";
import Decimal from "decimal.js";
import { Prisma } from "../db/generated/client";
import type { Dataset } from "../budget/cost";
import type { Db } from "../db/engines";
import { PROVENANCE_CLASSES, type ProvenanceClass } from "./judge";
import { readTallySums, tallyDatasets } from "./tally";

// What the provenance page and export read: samples, tokens and cost per class, per provider and
// per UTC day, for one dataset or all of them (from the totals kept in tally.ts), and the ids of
// one class in pages.

/** The provider column of records imported with only their generation id, until the lookup answers. */
export const NOT_LOOKED_UP = "(not yet looked up)";

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
  return tallyDatasets(db);
}

export async function provenanceSummary(db: Db, dataset: string | null, plan: Dataset[]): Promise<ProvenanceSummary> {
  // The totals PostgreSQL keeps per class, provider, UTC day and dataset as records and judgements
  // are written (tally.ts): a few thousand groups however many records, so the page does not scan
  // them. The totals, the two breakdowns, the unjudged count and the plan's trusted tokens are
  // sums of these groups.
  const [sums, computed] = await Promise.all([readTallySums(db, dataset), db.provenanceComputed.findMany()]);
  // When a class was last computed: the latest pass over a dataset it has generations in (every
  // pass sets its datasets' time, whether or not it changed a judgement).
  const computedOf = new Map(computed.map((c) => [c.dataset, c.computedAt.getTime()]));
  const judged = <T extends { class: ProvenanceClass | null }>(rows: T[]) => rows.filter((g): g is T & { class: ProvenanceClass } => g.class !== null);
  const totals = new Map<ProvenanceClass, { samples: number; input: Decimal; output: Decimal; cost: Decimal; computedAt: number }>();
  const planNames = new Set(plan.map((d) => d.name));
  let trustedPlan = new Decimal(0);
  for (const g of judged(sums.byDataset)) {
    const t = totals.get(g.class) ?? { samples: 0, input: new Decimal(0), output: new Decimal(0), cost: new Decimal(0), computedAt: 0 };
    t.samples += g.samples;
    t.input = t.input.plus(g.inputTokens);
    t.output = t.output.plus(g.outputTokens);
    t.cost = t.cost.plus(g.costUsd);
    t.computedAt = Math.max(t.computedAt, computedOf.get(g.dataset) ?? 0);
    totals.set(g.class, t);
    if (g.class === "trusted" && planNames.has(g.dataset)) trustedPlan = trustedPlan.plus(g.outputTokens);
  }
  const byProvider = judged(sums.byProvider).map((g) => ({ provider: g.provider ?? NOT_LOOKED_UP, class: g.class, samples: g.samples, output: new Decimal(g.outputTokens).toFixed(0) }));
  const byDay = judged(sums.byDay).map((g) => ({ day: g.day ?? "no time", class: g.class, samples: g.samples, output: new Decimal(g.outputTokens).toFixed(0) }));
  const unjudged = sums.byDataset.filter((g) => g.class === null).reduce((n, g) => n + g.samples, 0);
  const scopedPlan = dataset === null ? plan : plan.filter((d) => d.name === dataset);
  const planOutput = scopedPlan.reduce((s, d) => s + d.outputTokens, 0);
  const drop = (["suspect", "excluded"] as const).reduce((s, c) => s.plus(totals.get(c)?.cost ?? 0), new Decimal(0));
  // Ordered as SQL ordered them before: by provider (or day, "no time" last), then class.
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    dataset,
    totals: PROVENANCE_CLASSES.map((c) => {
      const t = totals.get(c);
      return {
        class: c,
        samples: t?.samples ?? 0,
        inputTokens: t?.input.toFixed(0) ?? "0",
        outputTokens: t?.output.toFixed(0) ?? "0",
        costUsd: (t?.cost ?? new Decimal(0)).toFixed(2),
        computedAt: t && t.computedAt > 0 ? new Date(t.computedAt).toISOString() : null,
      };
    }),
    byProvider: byProvider
      .sort((a, b) => order(a.provider, b.provider) || order(a.class, b.class))
      .map((r) => ({ provider: r.provider, class: r.class, samples: r.samples, outputTokens: r.output })),
    byDay: byDay
      .sort((a, b) => (a.day === "no time" ? 1 : 0) - (b.day === "no time" ? 1 : 0) || order(a.day, b.day) || order(a.class, b.class))
      .map((r) => ({ day: r.day, class: r.class, samples: r.samples, outputTokens: r.output })),
    unjudged,
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
 * the record's dedupe key (sha256:…) when it recorded none. `withDetails`: the tag and reasons
 * (from ProvenanceDetail) too; the list of ids needs neither.
 */
// (r.id > last as well as j."recordId" > last: PostgreSQL does not carry the bound across the
// join, and a merge join would read the records from their start for every page.)
export async function* exportRows(db: Db, cls: ProvenanceClass, dataset: string | null, withDetails = true, pageSize = 5_000): AsyncGenerator<ExportRow[]> {
  let last = 0;
  const filter = datasetFilter(dataset);
  for (;;) {
    const rows = await db.$queryRaw<Array<{ rid: number; key: string; dataset: string | null; provider: string; tag: string | null; occurred_at: Date | null; reasons: string[] }>>`
      SELECT j."recordId" AS rid, r."dedupeKey" AS key, r.dataset, r.provider, r."occurredAt" AS occurred_at,
             ${withDetails ? Prisma.sql`d.tag, d.reasons` : Prisma.sql`NULL::text AS tag, ARRAY[]::text[] AS reasons`}
        FROM "ProvenanceJudgement" j JOIN "UsageRecord" r ON r.id = j."recordId"
        ${withDetails ? Prisma.sql`JOIN "ProvenanceDetail" d ON d.digest = j.detail` : Prisma.empty}
       WHERE j.class = ${cls} AND j."recordId" > ${last} AND r.id > ${last} ${filter}
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
