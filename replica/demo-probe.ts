import type { Db } from "../lib/db/engines";
import { createOpenRouterClient } from "../lib/openrouter/client";
import { claimRun, processRun, type RunOutcome } from "../lib/probe/runner";
import { createProbeRun, DEFAULT_MAX_COST_USD } from "../lib/probe/runs";
import { DEMO_MODEL } from "./demo-scenario";

// The demo's finished fidelity probe: during demo setup, a real probe of the demo model (the
// built-in prompts, the default reference and endpoints) is created and worked to the end by the
// real runner against the demo's replica, so the verdict badges, the fidelity section and the
// probe spend show real numbers. The run is demo data (ProbeRun.demo, from the demo polls it
// plans on) and the page labels it so.

export interface DemoProbeResult {
  runId: number;
  outcome: RunOutcome;
  requests: number;
}

/** Whether the demo database already holds a finished demo probe of the demo model. */
export async function hasDemoProbe(db: Db): Promise<boolean> {
  return (await db.probeRun.count({ where: { modelId: DEMO_MODEL.id, demo: true, status: "done" } })) > 0;
}

export async function runDemoProbe(db: Db, replicaBaseUrl: string): Promise<DemoProbeResult> {
  const created = await createProbeRun(db, DEMO_MODEL.id, { maxCostUsd: DEFAULT_MAX_COST_USD });
  if (created.kind !== "created") throw new Error(`The demo probe could not start: ${created.message}`);
  if (!created.run.demo) throw new Error("The demo probe must plan on demo polls (run the demo history first)");
  const claimed = await claimRun(db, undefined, created.run.id);
  if (!claimed) throw new Error(`The demo probe ${created.run.id} could not be claimed`);
  const client = createOpenRouterClient({ baseUrl: replicaBaseUrl, apiKey: "demo-key-for-the-local-replica", timeoutMs: 15_000 });
  const outcome = await processRun(db, client, claimed.id, claimed.lease, { concurrencyPerProvider: 4, baseDelayMs: 50 });
  return { runId: claimed.id, outcome, requests: created.run.progress.total };
}
