import "server-only";
import type { Db } from "../db/engines";

// What the fidelity probes cost, for the spend page: summed in SQL, exact decimals as text.

export interface ProbeSpendRow {
  modelId: string;
  runs: number;
  costUsd: string;
  lastRunAt: string;
}

export async function probeSpend(db: Db): Promise<ProbeSpendRow[]> {
  const rows = await db.$queryRaw<Array<{ model_id: string; runs: number; cost: string; last_run: Date }>>`
    SELECT "modelId" AS model_id, count(*)::int AS runs, sum("costUsd")::text AS cost, max("createdAt") AS last_run
      FROM "ProbeRun"
     GROUP BY "modelId"
     ORDER BY "modelId"`;
  return rows.map((r) => ({ modelId: r.model_id, runs: r.runs, costUsd: r.cost, lastRunAt: r.last_run.toISOString() }));
}
