import "server-only";
import type { Db, DbOrTx } from "../db/engines";

// Each endpoint's verdict in the model's latest completed fidelity probe: what the rules, the
// badges and the view alerts read.

/** Each endpoint's verdict in the model's latest completed probe (for the rules and the badges). */
export interface LatestVerdict {
  tag: string;
  verdict: string;
  reason: string;
  runId: number;
  finishedAt: string;
  statistic: number | null;
  noiseFloor: number | null;
  pValue: number | null;
  method: string | null;
  /** The run's answers came from the local replica (demo data); always set by latestVerdicts. */
  demo?: boolean;
}

export async function latestVerdicts(db: DbOrTx, modelId: string): Promise<LatestVerdict[]> {
  const run = await db.probeRun.findFirst({ where: { modelId, status: "done" }, orderBy: { id: "desc" } });
  if (!run) return [];
  const results = await db.probeResult.findMany({ where: { runId: run.id } });
  return results.map((r) => ({
    tag: r.tag,
    verdict: r.verdict,
    reason: r.reason,
    runId: run.id,
    finishedAt: (run.finishedAt ?? run.createdAt).toISOString(),
    statistic: r.statistic,
    noiseFloor: r.noiseFloor,
    pValue: r.pValue,
    method: r.method,
    demo: run.demo,
  }));
}
