import Decimal from "decimal.js";
import { priceString } from "../money";
import type { NormalisedSnapshot } from "../poller/normalise";

// What changed between two consecutive snapshots of one model. Pure: the poller calls it once,
// when it writes a snapshot, and stores what it returns (see record-changes.ts).

export const CHANGE_KINDS = ["added", "removed", "price", "quantization", "tag", "status", "uptime", "probe"] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** UPTIME_THRESHOLD's default, for callers that were not given the configured one. */
export const DEFAULT_UPTIME_THRESHOLD = 95;

/** The facts of one endpoint in a snapshot that a change is reported on. */
export interface EndpointState {
  tag: string;
  provider: string;
  quantization: string | null;
  status: number | null;
  /** Decimal strings, USD per million tokens. */
  inputPricePerM: string | null;
  outputPricePerM: string | null;
  uptime30m: number | null;
}

/** An endpoint of a snapshot being written, as change detection compares it. */
export function endpointState(e: NormalisedSnapshot["endpoints"][number]): EndpointState {
  return {
    tag: e.tag,
    provider: e.providerName,
    quantization: e.facts.quantization,
    status: e.sample.status,
    inputPricePerM: e.sample.inputPricePerM?.toString() ?? null,
    outputPricePerM: e.sample.outputPricePerM?.toString() ?? null,
    uptime30m: e.sample.uptime30m,
  };
}

export interface ChangeDraft {
  tag: string;
  provider: string;
  kind: ChangeKind;
  before: string | null;
  after: string | null;
}

function samePrice(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return new Decimal(a).equals(new Decimal(b));
}

function prices(e: EndpointState): string {
  return `${priceString(e.inputPricePerM) ?? "—"} / ${priceString(e.outputPricePerM) ?? "—"}`;
}

const text = (v: string | number | null) => (v === null ? null : String(v));

/**
 * The changes from `previous` to `next`. No previous snapshot (the first poll of a model) means
 * nothing changed yet. An endpoint that disappears while another of the same provider appears is
 * one tag change, not a removal and an addition. Uptime is reported when the 30-minute uptime
 * crosses the threshold in either direction, not on every wobble.
 */
export function diffSnapshots(previous: EndpointState[] | null, next: EndpointState[], uptimeThreshold: number): ChangeDraft[] {
  if (!previous) return [];
  const before = new Map(previous.map((e) => [e.tag, e]));
  const after = new Map(next.map((e) => [e.tag, e]));
  const added = next.filter((e) => !before.has(e.tag));
  const removed = previous.filter((e) => !after.has(e.tag));
  const changes: ChangeDraft[] = [];

  const renamed = new Set<string>();
  for (const gone of removed) {
    const sameProviderAdded = added.filter((e) => e.provider === gone.provider);
    const sameProviderRemoved = removed.filter((e) => e.provider === gone.provider);
    if (sameProviderAdded.length === 1 && sameProviderRemoved.length === 1) {
      const successor = sameProviderAdded[0];
      renamed.add(gone.tag).add(successor.tag);
      changes.push({ tag: successor.tag, provider: successor.provider, kind: "tag", before: gone.tag, after: successor.tag });
    }
  }
  for (const e of added) {
    if (!renamed.has(e.tag)) changes.push({ tag: e.tag, provider: e.provider, kind: "added", before: null, after: e.quantization });
  }
  for (const e of removed) {
    if (!renamed.has(e.tag)) changes.push({ tag: e.tag, provider: e.provider, kind: "removed", before: e.quantization, after: null });
  }

  for (const now of next) {
    const was = before.get(now.tag);
    if (!was) continue;
    const base = { tag: now.tag, provider: now.provider };
    if (!samePrice(was.inputPricePerM, now.inputPricePerM) || !samePrice(was.outputPricePerM, now.outputPricePerM)) {
      changes.push({ ...base, kind: "price", before: prices(was), after: prices(now) });
    }
    if (was.quantization !== now.quantization) {
      changes.push({ ...base, kind: "quantization", before: was.quantization, after: now.quantization });
    }
    if (was.status !== now.status) {
      changes.push({ ...base, kind: "status", before: text(was.status), after: text(now.status) });
    }
    if (was.uptime30m !== null && now.uptime30m !== null && was.uptime30m >= uptimeThreshold !== now.uptime30m >= uptimeThreshold) {
      changes.push({ ...base, kind: "uptime", before: text(was.uptime30m), after: text(now.uptime30m) });
    }
  }
  return changes;
}
