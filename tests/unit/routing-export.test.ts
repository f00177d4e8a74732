import { describe, expect, it } from "vitest";
import { buildRoutingExport } from "@/lib/routing/export";
import { DEFAULT_RULES, evaluateRules, type EndpointFacts, type RuleSet } from "@/lib/rules/evaluate";
import { QUANT_CLASSES } from "@/lib/rules/quantization";
import { kimiFacts } from "../helpers/kimi-facts";
import { endpointFromFacts, tagsReachable } from "../helpers/routing-judge";

const FOUR_BIT = [...QUANT_CLASSES["4bit"].values];

function exportFor(endpoints: EndpointFacts[], over: Partial<RuleSet>) {
  const rules = { ...DEFAULT_RULES, ...over };
  const verdicts = evaluateRules(endpoints, rules);
  const exported = buildRoutingExport(endpoints, verdicts, rules, "price");
  return { verdicts, exported, included: verdicts.filter((v) => v.included).map((v) => v.tag) };
}

describe("routing export", () => {
  it("exports the seed scenario as only + quantizations + no fallbacks", () => {
    const { exported } = exportFor(kimiFacts(), { excludedQuantizations: FOUR_BIT, excludedTags: ["fireworks"], minUptime: 95 });
    expect(exported).toEqual({
      provider: {
        only: ["deepinfra", "novita", "together", "venice"],
        quantizations: ["int8", "fp6", "fp8", "mxfp8", "fp16", "bf16", "fp32", "unknown"],
        allow_fallbacks: false,
        sort: "price",
      },
    });
  });

  it("lists unknown in quantizations only when it is accepted", () => {
    const { exported } = exportFor(kimiFacts(), { excludedQuantizations: FOUR_BIT, acceptUnknown: false });
    expect(exported.provider.quantizations).not.toContain("unknown");
    expect(exported.provider.only).toEqual([]);
  });

  it("omits quantizations when no quantization rule is set", () => {
    expect(exportFor(kimiFacts(), { minUptime: 95 }).exported.provider.quantizations).toBeUndefined();
  });

  const cases: Array<[string, EndpointFacts[], Partial<RuleSet>]> = [
    ["the seed scenario", kimiFacts(), { excludedQuantizations: FOUR_BIT, excludedTags: ["fireworks"], minUptime: 95 }],
    ["a manual include of a 4-bit endpoint", kimiFacts(), { excludedQuantizations: FOUR_BIT, includedTags: ["chutes/int4"] }],
    ["no unknowns", kimiFacts(), { acceptUnknown: false }],
    ["a team-recorded nvfp4", kimiFacts().map((e) => (e.tag === "fireworks" ? { ...e, knownQuantization: "nvfp4" } : e)), { excludedQuantizations: FOUR_BIT }],
    [
      "variants sharing a base slug",
      [
        ...kimiFacts(),
        { ...kimiFacts()[7], tag: "deepinfra/turbo", quantization: "fp4", provider: "DeepInfra Turbo" },
      ],
      { excludedQuantizations: FOUR_BIT },
    ],
  ];
  // Judged by the replica's router (replica/routing.ts), which shares no code with the export.
  it.each(cases)("the replica's router reaches exactly the included rows: %s", (_name, endpoints, over) => {
    const { exported, included } = exportFor(endpoints, over);
    expect(included.length).toBeGreaterThan(0);
    expect(tagsReachable(endpoints.map(endpointFromFacts), { ...exported.provider }).sort()).toEqual([...included].sort());
  });

  it("names an excluded variant in ignore when its base slug is in only", () => {
    const endpoints = [...kimiFacts(), { ...kimiFacts()[7], tag: "deepinfra/turbo", quantization: "fp4" }];
    const { exported } = exportFor(endpoints, { excludedQuantizations: FOUR_BIT });
    expect(exported.provider.ignore).toEqual(["deepinfra/turbo"]);
  });
});
