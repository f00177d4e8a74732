import "server-only";
import type { Db } from "../db/engines";
import { rejudge } from "./rejudge";

/**
 * A fact provenance judges by has changed for a model (a probe's verdicts landed, a known
 * quantization was recorded, corrected or removed): the generations judged under that model's
 * views are judged again. Never fails the write that called it: an error is logged, and the
 * classes keep their last computed time, which the provenance page shows.
 */
export async function provenanceFactsChanged(db: Db, modelId: string, why: string): Promise<void> {
  try {
    await rejudge(db, { modelId });
  } catch (err) {
    console.error(`[provenance] re-judging ${modelId} after ${why} failed:`, (err as Error).message);
  }
}
