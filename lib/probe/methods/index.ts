import { logprobsMethod } from "./logprobs";
import { samplesMethod } from "./samples";
import type { MethodEndpoint, ProbeMethodDefinition } from "./types";

// Every comparison method, in order of preference: an endpoint is compared by the first method
// that applies to it and the reference. The method names (and the ProbeMethod type) come from here.

export const PROBE_METHODS = [logprobsMethod, samplesMethod] as const;

export type ProbeMethod = (typeof PROBE_METHODS)[number]["name"];

export const PROBE_METHOD_NAMES: readonly ProbeMethod[] = PROBE_METHODS.map((m) => m.name);

const byName = new Map<string, ProbeMethodDefinition>(PROBE_METHODS.map((m) => [m.name, m]));

export function probeMethod(name: string): ProbeMethodDefinition | null {
  return byName.get(name) ?? null;
}

export function isProbeMethod(name: unknown): name is ProbeMethod {
  return typeof name === "string" && byName.has(name);
}

export function methodFor(reference: MethodEndpoint, endpoint: MethodEndpoint): ProbeMethod {
  const chosen = PROBE_METHODS.find((m) => m.applies(reference, endpoint));
  if (!chosen) throw new Error(`no probe method applies to ${endpoint.tag}`);
  return chosen.name;
}
