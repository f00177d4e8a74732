import type { NormalisedSnapshot } from "../poller/normalise";

// What a writer has just written, as it tells its reactions (lib/reactions/registry.ts). Each fact
// is published inside the writer's transaction, after its rows are written, so a reaction reads
// them through the same transaction and what it writes (a change, an alert event and its
// deliveries in the outbox) commits with them or not at all.

/** A model's snapshot (lib/poller/store.ts): its endpoints, samples and poll record are written. */
export interface SnapshotWritten {
  kind: "snapshot";
  modelId: string;
  /** The poll record just written; the change log compares with the model's poll before it. */
  pollId: number;
  observedAt: Date;
  snapshot: NormalisedSnapshot;
  /** Uptime (%) whose crossing is logged as a change. */
  uptimeThreshold?: number;
}

/** A finished probe run's results (lib/probe/runner.ts), written for a run that is done. */
export interface ProbeResultWritten {
  kind: "probe-result";
  modelId: string;
  runId: number;
  observedAt: Date;
}

/** A spend snapshot (lib/spend/snapshot.ts): what the key had spent at observedAt. */
export interface SpendSnapshotWritten {
  kind: "spend-snapshot";
  observedAt: Date;
  demo: boolean;
}

/** What OpenRouter said about a key's usage just now (lib/keys/records.ts). */
export interface KeyUsageWritten {
  kind: "key-usage";
  hash: string;
  name: string;
  limitRemaining: string | null;
  demo: boolean;
  observedAt: Date;
}

/** A change the dashboard made to a key, or the pipeline key chosen (lib/keys/records.ts). */
export interface KeyChangeWritten {
  kind: "key-change";
  keyHash: string;
  action: string;
  observedAt: Date;
}

export type WrittenFact = SnapshotWritten | ProbeResultWritten | SpendSnapshotWritten | KeyUsageWritten | KeyChangeWritten;

export type FactKind = WrittenFact["kind"];
export type FactOf<K extends FactKind> = Extract<WrittenFact, { kind: K }>;
