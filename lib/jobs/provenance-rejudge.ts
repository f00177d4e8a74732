import "server-only";
import { getDb } from "../database";
import { runPendingRejudges } from "../provenance/rejudge-requests";
import { clearMemo } from "../queries/memo";
import { startLoop } from "./loop";

// The re-judgement job: finishes the provenance re-judgements a fact change asked for and did not
// see done (lib/provenance/rejudge-requests.ts): a process that died mid-pass (its lease runs
// out), or a pass that failed (tried again after a pause that doubles). Soon after start, then
// every half minute. The writers run their own requests at once; this is the net under them.

function worker(intervalMs = 30_000) {
  return startLoop({
    name: "provenance re-judgement",
    intervalMs,
    firstDelayMs: 2_000,
    round: async () => {
      const done = await runPendingRejudges(await getDb());
      if (done > 0) {
        console.log(`[provenance] ${done} re-judgement${done === 1 ? "" : "s"} left by an earlier pass finished`);
        clearMemo(); // the pages show the new classes at once
      }
    },
    onError: (err) => console.error("[provenance] re-judgement round failed:", (err as Error).message),
  });
}

export function startProvenanceRejudge(intervalMs = 30_000): boolean {
  worker(intervalMs);
  return true;
}
