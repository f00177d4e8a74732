import { describe, expect, it } from "vitest";
import { authorEndpoint, authorEndpoints, authorEndpointsExcludedByQuantization, isAuthorEndpoint, modelAuthor } from "@/lib/rules/author-endpoint";
import { DEFAULT_RULES, evaluateRules, type RuleSet } from "@/lib/rules/evaluate";
import { QUANT_CLASSES } from "@/lib/rules/quantization";
import { kimiFacts } from "../helpers/kimi-facts";

const KIMI = "moonshotai/kimi-k2.5";
const rules = (over: Partial<RuleSet> = {}): RuleSet => ({ ...DEFAULT_RULES, ...over });

describe("the model author's own endpoint", () => {
  it("is the endpoint whose provider slug is the model id's author", () => {
    expect(modelAuthor(KIMI)).toBe("moonshotai");
    expect(isAuthorEndpoint(KIMI, "moonshotai/int4")).toBe(true);
    expect(isAuthorEndpoint(KIMI, "moonshotai")).toBe(true);
    expect(isAuthorEndpoint(KIMI, "chutes/int4")).toBe(false);
    expect(isAuthorEndpoint(KIMI, "moonshot")).toBe(false); // a prefix is not the author
    expect(authorEndpoints(KIMI, kimiFacts()).map((e) => e.tag)).toEqual(["moonshotai/int4"]);
  });

  it("knows the authors whose provider slug differs from their model ids", () => {
    expect(isAuthorEndpoint("mistralai/mistral-large", "mistral")).toBe(true);
    expect(isAuthorEndpoint("x-ai/grok-4", "xai")).toBe(true);
    expect(isAuthorEndpoint("google/gemini-2.5-pro", "google-vertex/global")).toBe(true);
  });

  it("as one reference: the plain tag before variants, none when the author serves none", () => {
    const endpoints = [{ tag: "moonshotai/turbo" }, { tag: "chutes/int4" }, { tag: "moonshotai" }];
    expect(authorEndpoint(KIMI, endpoints)?.tag).toBe("moonshotai");
    expect(authorEndpoint(KIMI, [{ tag: "moonshotai/turbo" }, { tag: "moonshotai/int4" }])?.tag).toBe("moonshotai/int4");
    expect(authorEndpoint("z-ai/glm-5", kimiFacts())).toBeNull();
  });

  it("names the probe's reference among several author endpoints, the same one the probe defaults to", () => {
    const base = kimiFacts();
    const int4 = base.find((e) => e.tag === "moonshotai/int4");
    if (!int4) throw new Error("kimi facts lost moonshotai/int4");
    const facts = [...base, { ...int4, tag: "moonshotai/turbo", quantization: "fp8" }];
    const all = rules({ excludedQuantizations: [...QUANT_CLASSES["4bit"].values, "fp8"] });
    const excluded = authorEndpointsExcludedByQuantization(KIMI, facts, evaluateRules(facts, all));
    expect(excluded.map((e) => [e.tag, e.isProbeReference])).toEqual([
      ["moonshotai/int4", true],
      ["moonshotai/turbo", false],
    ]);
    expect(authorEndpoint(KIMI, facts)?.tag).toBe("moonshotai/int4");
    // Excluding only the variant does not name the reference.
    const fp8 = rules({ excludedQuantizations: ["fp8"] });
    expect(authorEndpointsExcludedByQuantization(KIMI, facts, evaluateRules(facts, fp8))).toEqual([
      { tag: "moonshotai/turbo", provider: "Moonshot AI", quantization: "fp8", includedByHand: false, isProbeReference: false },
    ]);
  });

  it("is reported when a quantization rule excludes it, and when a manual include overrides that", () => {
    const facts = kimiFacts();
    const fourBit = rules({ excludedQuantizations: [...QUANT_CLASSES["4bit"].values] });
    expect(authorEndpointsExcludedByQuantization(KIMI, facts, evaluateRules(facts, fourBit))).toEqual([
      { tag: "moonshotai/int4", provider: "Moonshot AI", quantization: "int4", includedByHand: false, isProbeReference: true },
    ]);
    const byHand = rules({ ...fourBit, includedTags: ["moonshotai/int4"] });
    expect(authorEndpointsExcludedByQuantization(KIMI, facts, evaluateRules(facts, byHand))[0].includedByHand).toBe(true);
    // Other rules excluding it (by hand, uptime) are not a quantization rule's doing.
    for (const r of [rules(), rules({ excludedTags: ["moonshotai/int4"] }), rules({ minUptime: 99.9 }), rules({ excludedQuantizations: ["fp8"] })]) {
      expect(authorEndpointsExcludedByQuantization(KIMI, facts, evaluateRules(facts, r))).toEqual([]);
    }
  });
});
