import { describe, expect, it } from "vitest";
import { buildRoutingExport } from "@/lib/routing/export";
import { DEFAULT_RULES, evaluateRules } from "@/lib/rules/evaluate";
import { endpointFacts } from "@/lib/rules/facts";
import { readComparisonState, toRuleSet } from "@/lib/view-state/comparison";
import type { ProviderRow } from "@/lib/queries/providers";

// The probe rules: "Exclude endpoints whose latest probe did not match the reference" (xprobe),
// "Exclude endpoints the probe found to differ" (xdiff, on by default) and the fail-closed
// "Include only endpoints verified equivalent" (xverify): their reasons, link parameters, and the
// routing export following them.

const row = (tag: string, provider: string): ProviderRow => ({
  tag, provider, quantization: "int4", inputPricePerM: "0.60", outputPricePerM: "3.00", cacheReadPricePerM: null, status: 0,
  uptime5m: 99, uptime30m: 99, uptime1d: 99, latencyP50Ms: null, throughputP50: null, contextLength: 262144, maxCompletionTokens: null,
  supportedParameters: [], firstSeenAt: "2026-12-01T00:00:00.000Z",
});
const rows = [
  row("moonshotai/int4", "Moonshot AI"), row("fireworks", "Fireworks"), row("together", "Together"), row("novita", "Novita"), row("chutes/int4", "Chutes"), row("venice", "Venice"),
  row("parasail/int4", "Parasail"), row("deepinfra", "DeepInfra"), row("atlas-cloud/int4", "AtlasCloud"), row("never", "Never probed"),
];
const at = "2026-12-01T20:00:00.000Z";
const probes = [
  { tag: "moonshotai/int4", verdict: "reference", reason: "The reference endpoint", finishedAt: at },
  { tag: "fireworks", verdict: "differs", reason: "differs by more than Δ: KL 0.061 nats/token, 95% interval [0.050, 0.072], Δ 1.0e-3", finishedAt: at },
  { tag: "together", verdict: "prompt-format", reason: "prompt tokens differ from the reference's on 41 of 41 prompts (another chat template or tokenizer)", finishedAt: at },
  { tag: "novita", verdict: "not-pinned", reason: "3 answers were served by another provider", finishedAt: at },
  { tag: "chutes/int4", verdict: "equivalent", reason: "within Δ", finishedAt: at },
  { tag: "venice", verdict: "unverifiable", reason: "no logprobs", finishedAt: at },
  { tag: "parasail/int4", verdict: "cannot tell", reason: "the interval straddles Δ", finishedAt: at },
  // Verdicts of a run before the equivalence probe.
  { tag: "deepinfra", verdict: "matches", reason: "no difference detected", finishedAt: at },
  { tag: "atlas-cloud/int4", verdict: "inconclusive", reason: "too few valid answers", finishedAt: at },
];

describe("the probe rule", () => {
  it("excludes differs, prompt-format and not-pinned with the probe's numbers and date; keeps the rest", () => {
    const verdicts = evaluateRules(endpointFacts(rows, [], probes), { ...DEFAULT_RULES, excludeProbeMismatch: true });
    const label = Object.fromEntries(verdicts.map((v) => [v.tag, v.label]));
    expect(label).toEqual({
      "moonshotai/int4": "Included",
      fireworks: "Excluded: differs by more than Δ: KL 0.061 nats/token, 95% interval [0.050, 0.072], Δ 1.0e-3; probe of 2026-12-01",
      together: "Excluded: prompt format: prompt tokens differ from the reference's on 41 of 41 prompts (another chat template or tokenizer); probe of 2026-12-01",
      novita: "Excluded: not pinned: 3 answers were served by another provider; probe of 2026-12-01",
      "chutes/int4": "Included",
      venice: "Included",
      "parasail/int4": "Included",
      deepinfra: "Included",
      "atlas-cloud/int4": "Included",
      never: "Included",
    });
  });

  it("out of the box excludes only differs; xdiff=false turns that off", () => {
    const excluded = (rules: typeof DEFAULT_RULES) => evaluateRules(endpointFacts(rows, [], probes), rules).filter((v) => !v.included).map((v) => v.tag);
    expect(excluded(DEFAULT_RULES)).toEqual(["fireworks"]);
    const off = toRuleSet(readComparisonState(new URLSearchParams("xdiff=false")).state);
    expect(excluded(off)).toEqual([]);
  });

  it("fail-closed (xverify=true): keeps only endpoints verified equivalent and the reference", () => {
    const rules = toRuleSet(readComparisonState(new URLSearchParams("xverify=true")).state);
    const verdicts = evaluateRules(endpointFacts(rows, [], probes), rules);
    expect(verdicts.filter((v) => v.included).map((v) => v.tag)).toEqual(["moonshotai/int4", "chutes/int4"]);
    const label = Object.fromEntries(verdicts.map((v) => [v.tag, v.label]));
    expect(label.never).toBe("Excluded: not verified equivalent (never probed)");
    expect(label.deepinfra).toBe("Excluded: not verified equivalent (matches: no difference detected); probe of 2026-12-01");
    expect(label["parasail/int4"]).toBe("Excluded: not verified equivalent (cannot tell: the interval straddles Δ); probe of 2026-12-01");
  });

  it("is part of the link (xprobe=true), and the routing export follows it", () => {
    const { state, ignored } = readComparisonState(new URLSearchParams("xprobe=true"));
    expect(ignored).toEqual([]);
    const rules = toRuleSet(state);
    expect(rules.excludeProbeMismatch).toBe(true);
    const facts = endpointFacts(rows, [], probes);
    const routing = buildRoutingExport(facts, evaluateRules(facts, rules), rules, "price");
    expect(routing.provider.only).toEqual(expect.arrayContaining(["moonshotai/int4", "chutes/int4", "venice", "parasail/int4", "deepinfra", "atlas-cloud/int4", "never"]));
    expect(routing.provider.only).not.toContain("fireworks");
    expect(routing.provider.only).toHaveLength(7);
  });
});
