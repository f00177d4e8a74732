import "server-only";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/engines";
import type { ProvenanceClass } from "./judge";

// The provenance page's totals as PostgreSQL keeps them while records and judgements are written
// (the triggers of migrations 20261204081411_provenance_tally and 20261207020000_usage_tally_model
// append signed deltas to "ProvenanceTally"; the spend page's usage totals read them too). Reading
// them costs a few thousand rows however many records are stored; this module reads them and folds
// the deltas, so the table stays one row a group between writes.

/** Totals of the groups that share a class and one more key: a dataset, a provider or a day. */
export interface TallySum {
  /** Null: not judged yet. */
  class: ProvenanceClass | null;
  samples: number;
  inputTokens: string;
  outputTokens: string;
  costUsd: string;
}

export interface TallySums {
  /** Per class and dataset ("" for the records without one). */
  byDataset: Array<TallySum & { dataset: string }>;
  /** Per class and provider (null until a record's lookup says who served it). */
  byProvider: Array<TallySum & { provider: string | null }>;
  /** Per class and UTC day (YYYY-MM-DD; null for records without a time). */
  byDay: Array<TallySum & { day: string | null }>;
}

/**
 * The page's three breakdowns of one dataset's groups (or of all when null), summed by PostgreSQL
 * in one pass (grouping sets): a few hundred rows reach the server however many groups are kept. A
 * sum whose samples net to zero is left out (in a consistent tally its tokens and cost do too).
 */
export async function readTallySums(db: Db, dataset: string | null): Promise<TallySums> {
  const rows = await db.$queryRaw<
    Array<{ class: string; dataset: string | null; provider: string | null; day: string | null; set: number; samples: number; input: string; output: string; cost: string }>
  >`
    SELECT class, dataset, provider, to_char(day, 'YYYY-MM-DD') AS day,
           GROUPING(dataset, provider, day)::int AS set, sum(samples)::int AS samples,
           sum("inputTokens")::text AS input, sum("outputTokens")::text AS output, sum("costUsd")::text AS cost
      FROM "ProvenanceTally"
     WHERE ${dataset === null ? Prisma.sql`true` : Prisma.sql`dataset = ${dataset}`}
     GROUP BY GROUPING SETS ((class, dataset), (class, provider), (class, day))
    HAVING sum(samples) <> 0`;
  const sums: TallySums = { byDataset: [], byProvider: [], byDay: [] };
  for (const r of rows) {
    const sum: TallySum = { class: r.class === "" ? null : (r.class as ProvenanceClass), samples: r.samples, inputTokens: r.input, outputTokens: r.output, costUsd: r.cost };
    // GROUPING's bits, dataset first: 0b011 the (class, dataset) set, 0b101 provider, 0b110 day.
    if (r.set === 0b011) sums.byDataset.push({ ...sum, dataset: r.dataset ?? "" });
    else if (r.set === 0b101) sums.byProvider.push({ ...sum, provider: r.provider });
    else if (r.set === 0b110) sums.byDay.push({ ...sum, day: r.day });
  }
  return sums;
}

/** The datasets that hold records ("" for those without one), in order. */
export async function tallyDatasets(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ dataset: string }>>`
    SELECT dataset FROM "ProvenanceTally" GROUP BY dataset HAVING sum(samples) > 0 ORDER BY dataset`;
  return rows.map((r) => r.dataset);
}

/**
 * Folds each group's deltas into one row, in one statement: the rows it deletes are exactly the
 * rows it sums, so deltas another transaction appends meanwhile (not yet visible to it) stay, and
 * a second compaction at the same time finds the rows gone and leaves them. Groups already one row
 * are not touched. The embedded engine has no autovacuum, so the dead rows are vacuumed here (a
 * table of a few thousand rows: milliseconds). Returns how many rows it folded.
 */
export async function compactProvenanceTally(db: Db): Promise<number> {
  const [{ folded }] = await db.$queryRaw<Array<{ folded: number }>>`
    WITH gone AS (
      DELETE FROM "ProvenanceTally"
       WHERE id IN (SELECT unnest(array_agg(id)) FROM "ProvenanceTally" GROUP BY dataset, class, provider, "modelId", day HAVING count(*) > 1)
      RETURNING *),
    sums AS (
      INSERT INTO "ProvenanceTally" (dataset, class, provider, "modelId", day, samples, "inputTokens", "outputTokens", "costUsd")
      SELECT dataset, class, provider, "modelId", day, sum(samples), sum("inputTokens"), sum("outputTokens"), sum("costUsd")
        FROM gone
       GROUP BY dataset, class, provider, "modelId", day
      HAVING sum(samples) <> 0 OR sum("inputTokens") <> 0 OR sum("outputTokens") <> 0 OR sum("costUsd") <> 0)
    SELECT count(*)::int AS folded FROM gone`;
  if (folded > 0) await db.$executeRawUnsafe(`VACUUM "ProvenanceTally"`);
  return folded;
}
