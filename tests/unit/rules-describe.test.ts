import { describe, expect, it } from "vitest";
import { describeActiveRules, rulesHeadline } from "@/lib/rules/describe";
import { DEFAULT_RULES, evaluateRules, type RuleSet } from "@/lib/rules/evaluate";
import { QUANT_CLASSES } from "@/lib/rules/quantization";
import { kimiFacts } from "../helpers/kimi-facts";

const rules = (over: Partial<RuleSet> = {}): RuleSet => ({ ...DEFAULT_RULES, ...over });
const names = new Map(kimiFacts().map((e) => [e.tag, e.provider]));
const headline = (r: RuleSet) => rulesHeadline(r, evaluateRules(kimiFacts(), r), (tag) => names.get(tag) ?? tag);

describe("which rules produced the included set", () => {
  it("says when no rule is set, and how many that includes", () => {
    expect(headline(rules({ excludeDegraded: false }))).toBe("no rules set: all 11 included");
  });

  it("names the default rule: degraded endpoints excluded", () => {
    expect(headline(DEFAULT_RULES)).toBe("rules: degraded endpoints excluded · 10 of 11 included");
  });

  it("lists the seed scenario's rules in words, by class and provider name", () => {
    const seed = rules({ excludedQuantizations: [...QUANT_CLASSES["4bit"].values], excludedTags: ["fireworks"], minUptime: 95 });
    expect(headline(seed)).toBe(
      "rules: 4-bit quantization excluded; Fireworks excluded by hand; uptime ≥ 95% (30m); degraded endpoints excluded · 4 of 11 included",
    );
  });

  it("names single values, unknown, manual includes, status and prices", () => {
    expect(
      describeActiveRules(
        rules({
          excludedQuantizations: ["int8", "fp8"],
          acceptUnknown: false,
          includedTags: ["chutes/int4"],
          requireStatusZero: true,
          maxInputPricePerM: "0.6",
          maxOutputPricePerM: "3",
        }),
        (tag) => names.get(tag) ?? tag,
      ),
    ).toEqual([
      "int8, fp8, unknown quantization excluded",
      "Chutes included by hand",
      "status must be 0",
      "input ≤ $0.6/M",
      "output ≤ $3/M",
    ]);
  });

  it("says when endpoints without a listed price are why the count is short", () => {
    const facts = kimiFacts().map((e) => (e.tag === "venice" ? { ...e, inputPricePerM: null } : e));
    const r = rules({ excludeDegraded: false });
    expect(rulesHeadline(r, evaluateRules(facts, r))).toBe("no rules set: 10 of 11 included (1 without a listed price)");
  });
});
