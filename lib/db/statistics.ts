import "server-only";
import type { Db } from "./engines";

// The query planner's statistics of the tables that grow by bulk writes. PostgreSQL refreshes
// them by autovacuum, some time after a table changed; the embedded engine (PGlite, one process in
// single-user mode) never does. A planner that still believes a million-row table empty picks plans
// that read it whole for every page (bench/provenance.md measured an export at 1 million records).

const TABLES = ["UsageRecord", "ProvenanceJudgement"] as const;
export type AnalyzedTable = (typeof TABLES)[number];

/**
 * ANALYZE a table when the rows just written are a tenth of what the planner believes it holds, or
 * it was never analyzed: cheap (a sample of at most 30,000 rows) and rare once the table is large.
 */
export async function refreshStatisticsIfGrown(db: Db, table: AnalyzedTable, written: number): Promise<boolean> {
  if (!TABLES.includes(table) || written <= 0) return false;
  const [row] = await db.$queryRaw<Array<{ tuples: number }>>`SELECT reltuples::float8 AS tuples FROM pg_class WHERE oid = to_regclass(${`"${table}"`})`;
  const believed = row?.tuples ?? -1;
  if (believed >= 0 && written < believed / 10) return false;
  await db.$executeRawUnsafe(`ANALYZE "${table}"`);
  return true;
}
