import { describe, expect, it } from "vitest";
import { KNOWN_QUANTIZATIONS } from "@/lib/rules/vocabulary";
import { DEFAULT_RULES, evaluateRules, summarise, type EndpointFacts, type RuleSet } from "@/lib/rules/evaluate";
import { QUANT_CLASSES, classOf } from "@/lib/rules/quantization";
import { kimiFacts } from "../helpers/kimi-facts";

const endpoint = (over: Partial<EndpointFacts> = {}): EndpointFacts => ({
  tag: "p",
  provider: "P",
  quantization: "bf16",
  knownQuantization: null,
  status: 0,
  uptime5m: 99,
  uptime30m: 99,
  uptime1d: 99,
  inputPricePerM: "0.50",
  outputPricePerM: "2.50",
  ...over,
});
const rules = (over: Partial<RuleSet> = {}): RuleSet => ({ ...DEFAULT_RULES, ...over });
const one = (e: Partial<EndpointFacts>, r: Partial<RuleSet> = {}) => evaluateRules([endpoint(e)], rules(r))[0];

describe("quantization classes", () => {
  it("put every known value in exactly one class", () => {
    for (const q of KNOWN_QUANTIZATIONS) {
      const owners = Object.values(QUANT_CLASSES).filter((c) => (c.values as readonly string[]).includes(q));
      expect(owners, q).toHaveLength(1);
    }
    expect(classOf("nvfp4")).toBe("4bit");
    expect(classOf("int8")).toBe("8bit");
    expect(classOf("bf16")).toBe("full");
    expect(classOf(null)).toBe("unknown");
    expect(classOf("fp5")).toBe("unknown");
  });
});

describe("evaluateRules", () => {
  it("by default excludes only what OpenRouter marks degraded, flagging unknown quantization as unverified", () => {
    const verdicts = evaluateRules(kimiFacts(), DEFAULT_RULES);
    expect(verdicts.filter((v) => !v.included).map((v) => [v.tag, v.label])).toEqual([["baseten/fp4", "Excluded: degraded (status -5)"]]);
    expect(verdicts.filter((v) => v.included).every((v) => v.label === "Included")).toBe(true);
    expect(verdicts.filter((v) => v.unverified).map((v) => v.tag)).toEqual(["fireworks", "deepinfra", "together", "novita", "venice"]);
    // With the degraded rule turned off, every endpoint is included.
    expect(evaluateRules(kimiFacts(), rules({ excludeDegraded: false })).every((v) => v.included)).toBe(true);
  });

  it("the degraded rule excludes status below 0 only; status must be 0 is the stricter rule and says it once", () => {
    expect(one({ status: -1 }).label).toBe("Excluded: degraded (status -1)");
    expect(one({ status: 0 }).included).toBe(true);
    expect(one({ status: 1 }).included).toBe(true);
    expect(one({ status: null }).included).toBe(true); // unknown is not degraded
    expect(one({ status: -5 }, { excludeDegraded: false }).included).toBe(true);
    expect(one({ status: -5 }, { requireStatusZero: true }).reasons).toEqual([{ kind: "status", text: "status -5" }]);
    // A manual include does not override it: it is a threshold, like uptime.
    expect(one({ tag: "b", status: -5 }, { includedTags: ["b"] }).included).toBe(false);
  });

  it.each(KNOWN_QUANTIZATIONS.filter((q) => q !== "unknown"))("excludes %s when that value is excluded, and nothing else", (q) => {
    expect(one({ quantization: q }, { excludedQuantizations: [q] })).toMatchObject({ included: false, label: `Excluded: ${q}` });
    const other = KNOWN_QUANTIZATIONS.find((x) => x !== q && x !== "unknown") as string;
    expect(one({ quantization: other }, { excludedQuantizations: [q] }).included).toBe(true);
  });

  it.each([null, "unknown", "fp5"])("treats %s as unknown quantization", (q) => {
    expect(one({ quantization: q }).included).toBe(true);
    expect(one({ quantization: q }).unverified).toBe(true);
    const excluded = one({ quantization: q }, { acceptUnknown: false });
    expect(excluded.included).toBe(false);
    expect(excluded.label).toBe(q === "fp5" ? "Excluded: unrecognised quantization fp5" : "Excluded: unknown quantization");
    expect(one({ quantization: q }, { excludedQuantizations: ["unknown"] }).included).toBe(false);
  });

  it("uses the team's known quantization over the reported one, and says so", () => {
    const v = one({ quantization: "unknown", knownQuantization: "nvfp4" }, { excludedQuantizations: [...QUANT_CLASSES["4bit"].values] });
    expect(v).toMatchObject({ included: false, quantization: "nvfp4", quantizationSource: "team", label: "Excluded: nvfp4" });
  });

  it("a manual include overrides the quantization rules but not the thresholds", () => {
    const v = one({ tag: "chutes/int4", quantization: "int4" }, { excludedQuantizations: ["int4"], includedTags: ["chutes/int4"] });
    expect(v).toMatchObject({ included: true, label: "Included by hand (over int4)" });
    expect(v.overridden).toEqual([{ kind: "quantization", text: "int4" }]);
    const low = one(
      { tag: "chutes/int4", quantization: "int4", uptime30m: 80 },
      { excludedQuantizations: ["int4"], includedTags: ["chutes/int4"], minUptime: 95 },
    );
    expect(low).toMatchObject({ included: false, label: "Excluded: uptime 80% < 95%" });
  });

  it("a manual exclude says so, and lists the other reasons too", () => {
    expect(one({ tag: "fireworks" }, { excludedTags: ["fireworks"] }).label).toBe("Excluded by hand");
    const both = one({ tag: "x", quantization: "int4" }, { excludedTags: ["x"], excludedQuantizations: ["int4"] });
    expect(both.reasons.map((r) => r.kind)).toEqual(["manual", "quantization"]);
    expect(both.label).toBe("Excluded: by hand; int4");
  });

  it("applies the uptime threshold on the chosen window, and excludes missing uptime data", () => {
    expect(one({ uptime30m: 29.8 }, { minUptime: 95 }).label).toBe("Excluded: uptime 29.8% < 95%");
    expect(one({ uptime30m: 95 }, { minUptime: 95 }).included).toBe(true);
    expect(one({ uptime30m: 99, uptime1d: 90 }, { minUptime: 95, uptimeWindow: "1d" }).label).toBe("Excluded: uptime 90% < 95%");
    expect(one({ uptime5m: null }, { minUptime: 95, uptimeWindow: "5m" }).label).toBe("Excluded: no uptime data (5m)");
    expect(one({ uptime30m: null }).included).toBe(true); // no threshold, no rule
  });

  it("applies status and price thresholds", () => {
    expect(one({ status: -5 }, { requireStatusZero: true }).label).toBe("Excluded: status -5");
    expect(one({ status: null }, { requireStatusZero: true }).label).toBe("Excluded: status unknown");
    expect(one({ status: -5 }, { excludeDegraded: false }).included).toBe(true);
    expect(one({ inputPricePerM: "0.75" }, { maxInputPricePerM: "0.60" }).label).toBe("Excluded: input $0.75/M > $0.60/M");
    expect(one({ inputPricePerM: "0.60" }, { maxInputPricePerM: "0.60" }).included).toBe(true);
    expect(one({ outputPricePerM: null }, { maxOutputPricePerM: "3" }).label).toBe("Excluded: no output price");
    // Without a listed price an endpoint is excluded even with no price rule set.
    expect(one({ inputPricePerM: null, outputPricePerM: null }).label).toBe("Excluded: no input price; no output price");
  });

  it("the seed scenario leaves DeepInfra, Together, Novita and Venice", () => {
    const verdicts = evaluateRules(
      kimiFacts(),
      rules({ excludedQuantizations: [...QUANT_CLASSES["4bit"].values], excludedTags: ["fireworks"], minUptime: 95 }),
    );
    expect(verdicts.filter((v) => v.included).map((v) => v.tag)).toEqual(["deepinfra", "together", "novita", "venice"]);
    expect(summarise(verdicts)).toBe("4 of 11 providers included");
    expect(verdicts.find((v) => v.tag === "baseten/fp4")?.label).toBe("Excluded: fp4; uptime 29.8% < 95%; degraded (status -5)");
  });
});
