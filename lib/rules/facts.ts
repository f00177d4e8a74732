import type { ProviderRow } from "../queries/providers";
import type { EndpointFacts, ProbeFact } from "./evaluate";

/** A snapshot's rows with the team's known quantization (and latest probe verdict) attached, as the rules engine takes them. */
export function endpointFacts(
  rows: readonly ProviderRow[],
  known: readonly { tag: string; quantization: string }[],
  probes: readonly (ProbeFact & { tag: string })[] = [],
): EndpointFacts[] {
  const byTag = new Map(known.map((k) => [k.tag, k.quantization]));
  const probeByTag = new Map(probes.map((p) => [p.tag, p]));
  return rows.map((r) => ({ ...r, knownQuantization: byTag.get(r.tag) ?? null, probe: probeByTag.get(r.tag) ?? null }));
}
