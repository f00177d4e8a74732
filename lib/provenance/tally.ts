import "server-only";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/engines";
import type { ProvenanceClass } from "./judge";

// The provenance page's totals as PostgreSQL keeps them while records and judgements are written
// (the triggers of migration 20261204081411_provenance_tally append signed deltas to
// "ProvenanceTally"). Reading them costs a few thousand rows however many records are stored; this
// module reads them and folds the deltas, so the table stays one row a group between writes.

/** One group's totals: a dataset ("" for none), class (null: not judged yet), provider, UTC day. */
export interface TallyGroup {
  class: ProvenanceClass | null;
  /** Null until the record's lookup says who served it. */
  provider: string | null;
  /** YYYY-MM-DD, or null for records without a time. */
  day: string | null;
  dataset: string;
  samples: number;
  inputTokens: string;
  outputTokens: string;
  costUsd: string;
}

/** The groups of one dataset ("" for the records without one), or of all when null. */
export async function readTally(db: Db, dataset: string | null): Promise<TallyGroup[]> {
  const rows = await db.$queryRaw<
    Array<{ class: string; provider: string | null; day: string | null; dataset: string; samples: number; input: string; output: string; cost: string }>
  >`
    SELECT class, provider, to_char(day, 'YYYY-MM-DD') AS day, dataset, sum(samples)::int AS samples,
           sum("inputTokens")::text AS input, sum("outputTokens")::text AS output, sum("costUsd")::text AS cost
      FROM "ProvenanceTally"
     WHERE ${dataset === null ? Prisma.sql`true` : Prisma.sql`dataset = ${dataset}`}
     GROUP BY class, provider, day, dataset
    HAVING sum(samples) <> 0`;
  return rows.map((r) => ({
    class: r.class === "" ? null : (r.class as ProvenanceClass),
    provider: r.provider,
    day: r.day,
    dataset: r.dataset,
    samples: r.samples,
    inputTokens: r.input,
    outputTokens: r.output,
    costUsd: r.cost,
  }));
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
       WHERE id IN (SELECT unnest(array_agg(id)) FROM "ProvenanceTally" GROUP BY dataset, class, provider, day HAVING count(*) > 1)
      RETURNING *),
    sums AS (
      INSERT INTO "ProvenanceTally" (dataset, class, provider, day, samples, "inputTokens", "outputTokens", "costUsd")
      SELECT dataset, class, provider, day, sum(samples), sum("inputTokens"), sum("outputTokens"), sum("costUsd")
        FROM gone
       GROUP BY dataset, class, provider, day
      HAVING sum(samples) <> 0 OR sum("inputTokens") <> 0 OR sum("outputTokens") <> 0 OR sum("costUsd") <> 0)
    SELECT count(*)::int AS folded FROM gone`;
  if (folded > 0) await db.$executeRawUnsafe(`VACUUM "ProvenanceTally"`);
  return folded;
}
