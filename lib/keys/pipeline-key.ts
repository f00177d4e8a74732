import "server-only";
import type { DbOrTx } from "../db/engines";

// Which key is the pipeline's: the newest choice (by hash only; the key itself is never stored).
// Read by the key overview, the budget guard, the hourly usage read and the key-limit alert (inside
// the transaction that stores the key's usage), so it imports nothing that writes.

export interface PipelineKeyChoice {
  hash: string;
  name: string;
  chosenAt: string;
}

export async function currentPipelineKey(db: DbOrTx): Promise<PipelineKeyChoice | null> {
  const row = await db.pipelineKey.findFirst({ orderBy: [{ chosenAt: "desc" }, { id: "desc" }] });
  return row ? { hash: row.keyHash, name: row.name, chosenAt: row.chosenAt.toISOString() } : null;
}
