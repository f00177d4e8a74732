import "server-only";
import type { DbOrTx } from "../db/engines";
import type { FactKind, FactOf } from "./facts";
import { reactions, type Reaction } from "./registry";

/**
 * The one hook of the write paths: called inside the writer's transaction with what it wrote.
 * Runs the reactions registered for the fact's kind (./registry.ts) in order, each awaited; an
 * error is not caught, so it rolls the writer's transaction back.
 */
export async function publishWritten<K extends FactKind>(tx: DbOrTx, fact: FactOf<K> & { kind: K }): Promise<void> {
  const list = reactions[fact.kind] as ReadonlyArray<Reaction<FactOf<K>>>;
  for (const reaction of list) await reaction.run(tx, fact);
}
