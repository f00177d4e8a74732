import type { KnownQuantizationEntry } from "../known-quantization";
import type { ProviderRow } from "../queries/providers";
import type { EndpointFacts } from "./evaluate";

/** A snapshot's rows with the team's known quantization attached, as the rules engine takes them. */
export function endpointFacts(rows: readonly ProviderRow[], known: readonly Pick<KnownQuantizationEntry, "tag" | "quantization">[]): EndpointFacts[] {
  const byTag = new Map(known.map((k) => [k.tag, k.quantization]));
  return rows.map((r) => ({ ...r, knownQuantization: byTag.get(r.tag) ?? null }));
}
