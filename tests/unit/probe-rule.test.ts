import { describe, expect, it } from "vitest";
import { buildRoutingExport } from "@/lib/routing/export";
import { DEFAULT_RULES, evaluateRules } from "@/lib/rules/evaluate";
import { endpointFacts } from "@/lib/rules/facts";
import { readComparisonState, toRuleSet } from "@/lib/view-state/comparison";
import type { ProviderRow } from "@/lib/queries/providers";

// The rule "Exclude endpoints whose latest probe did not match the reference": its reasons, the
// link parameter, and the routing export following it.

const row = (tag: string, provider: string): ProviderRow => ({
  tag, provider, quantization: "int4", inputPricePerM: "0.60", outputPricePerM: "3.00", cacheReadPricePerM: null, status: 0,
  uptime5m: 99, uptime30m: 99, uptime1d: 99, latencyP50Ms: null, throughputP50: null, contextLength: 262144, maxCompletionTokens: null,
  supportedParameters: [], firstSeenAt: "2026-12-01T00:00:00.000Z",
});
const rows = [row("moonshotai/int4", "Moonshot AI"), row("fireworks", "Fireworks"), row("together", "Together"), row("novita", "Novita"), row("chutes/int4", "Chutes"), row("venice", "Venice")];
const at = "2026-12-01T20:00:00.000Z";
const probes = [
  { tag: "moonshotai/int4", verdict: "reference", reason: "The reference endpoint", finishedAt: at },
  { tag: "fireworks", verdict: "differs", reason: "differs from reference (TV 0.210 vs noise 0.030, p < 0.001)", finishedAt: at },
  { tag: "together", verdict: "prompt-format", reason: "prompt tokens differ from the reference's on 41 of 41 prompts (another chat template or tokenizer)", finishedAt: at },
  { tag: "novita", verdict: "not-pinned", reason: "3 answers were served by another provider", finishedAt: at },
  { tag: "chutes/int4", verdict: "matches", reason: "no difference detected", finishedAt: at },
  { tag: "venice", verdict: "inconclusive", reason: "too few valid answers", finishedAt: at },
];

describe("the probe rule", () => {
  it("excludes differs, prompt-format and not-pinned with the probe's numbers and date; keeps the rest", () => {
    const verdicts = evaluateRules(endpointFacts(rows, [], probes), { ...DEFAULT_RULES, excludeProbeMismatch: true });
    const label = Object.fromEntries(verdicts.map((v) => [v.tag, v.label]));
    expect(label).toEqual({
      "moonshotai/int4": "Included",
      fireworks: "Excluded: differs from reference (TV 0.210 vs noise 0.030, p < 0.001); probe of 2026-12-01",
      together: "Excluded: prompt format: prompt tokens differ from the reference's on 41 of 41 prompts (another chat template or tokenizer); probe of 2026-12-01",
      novita: "Excluded: not pinned: 3 answers were served by another provider; probe of 2026-12-01",
      "chutes/int4": "Included",
      venice: "Included",
    });
    // Off by default: the verdicts are shown, nothing is excluded for them.
    expect(evaluateRules(endpointFacts(rows, [], probes), DEFAULT_RULES).every((v) => v.included)).toBe(true);
  });

  it("is part of the link (xprobe=true), and the routing export follows it", () => {
    const { state, ignored } = readComparisonState(new URLSearchParams("xprobe=true"));
    expect(ignored).toEqual([]);
    const rules = toRuleSet(state);
    expect(rules.excludeProbeMismatch).toBe(true);
    const facts = endpointFacts(rows, [], probes);
    const routing = buildRoutingExport(facts, evaluateRules(facts, rules), rules, "price");
    expect(routing.provider.only).toEqual(expect.arrayContaining(["moonshotai/int4", "chutes/int4", "venice"]));
    expect(routing.provider.only).not.toContain("fireworks");
    expect(routing.provider.only).toHaveLength(3);
  });
});
