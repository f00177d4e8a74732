import "server-only";
import type { DbOrTx } from "../db/engines";
import { detectKeyLimitAlert, detectSpendAlerts } from "../alerts/detect-budget";
import { detectViewAlerts } from "../alerts/detect-views";
import { recordChanges } from "../history/record-changes";
import { recordVerdictChanges } from "../probe/changes";
import type { FactKind, FactOf } from "./facts";

// Every reaction to a write, in one place. A writer publishes what it wrote (publishWritten in
// ./publish.ts) inside its transaction; the reactions listed for that kind of fact run there, in
// this order, and a reaction's error rolls the whole write back (the snapshot, with its change log
// and alert events, is stored whole or not at all). A reaction takes the transaction as it is:
// the alerts write their events to the outbox (lib/alerts/outbox.ts) through it.

export interface Reaction<F> {
  name: string;
  run(tx: DbOrTx, fact: F): Promise<unknown>;
}

export type ReactionRegistry = { [K in FactKind]: ReadonlyArray<Reaction<FactOf<K>>> };

export const reactions: ReactionRegistry = {
  snapshot: [
    { name: "change log", run: (tx, f) => recordChanges(tx, f.modelId, f.observedAt, f.snapshot, f.uptimeThreshold, f.pollId) },
    // After the change log, as before: the views are compared on the snapshot just written.
    { name: "view alerts", run: (tx, f) => detectViewAlerts(tx, f.modelId, f.observedAt) },
  ],
  "probe-result": [
    { name: "change log", run: (tx, f) => recordVerdictChanges(tx, f.modelId, f.runId) },
    { name: "view alerts", run: (tx, f) => detectViewAlerts(tx, f.modelId, f.observedAt) },
  ],
  "spend-snapshot": [{ name: "budget alerts", run: (tx, f) => detectSpendAlerts(tx, f.observedAt, f.demo) }],
  // Nothing reacts to a key change yet (the spend page lists the rows); a reaction goes here.
  "key-change": [],
  "key-usage": [
    {
      name: "key-limit alert",
      run: (tx, f) => detectKeyLimitAlert(tx, { hash: f.hash, name: f.name, limitRemaining: f.limitRemaining }, f.demo, f.observedAt),
    },
  ],
};
