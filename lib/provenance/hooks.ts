import "server-only";
import type { Db } from "../db/engines";
import { requestRejudge, runRejudgeRequest, type RejudgeRequestScope } from "./rejudge-requests";

/**
 * Something provenance judges by has changed: the generations it touches are judged again now,
 * through a durable request (lib/provenance/rejudge-requests.ts), so a process that dies mid-pass
 * leaves the request for the re-judgement job. A writer that can ask before (or in the same
 * transaction as) its change does so too (`requestRejudge`), which closes the gap between the
 * change and this call. Never fails the write that called it: an error is logged and recorded on
 * the request, which the job tries again; the page shows it.
 */
export async function rejudgeNow(db: Db, scope: RejudgeRequestScope, why: string): Promise<void> {
  try {
    await requestRejudge(db, scope, why);
    await runRejudgeRequest(db, scope);
  } catch (err) {
    console.error(`[provenance] re-judging ${"modelId" in scope ? scope.modelId : `dataset ${scope.dataset}`} after ${why} failed:`, (err as Error).message);
  }
}

/** A fact of a model changed (a probe's verdicts landed, a known quantization was recorded, corrected or removed). */
export async function provenanceFactsChanged(db: Db, modelId: string, why: string): Promise<void> {
  await rejudgeNow(db, { modelId }, why);
}
