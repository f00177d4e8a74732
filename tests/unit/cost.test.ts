import Decimal from "decimal.js";
import { describe, expect, it } from "vitest";
import { costOf, coverage, estimate, formatUsd, parseBudget, toCents } from "@/lib/budget/cost";
import { DEFAULT_PLAN } from "@/lib/view-state/budget";

const KIMI_INCLUDED = [
  { tag: "deepinfra", provider: "DeepInfra", inputPricePerM: "0.45", outputPricePerM: "2.25" },
  { tag: "together", provider: "Together", inputPricePerM: "0.50", outputPricePerM: "2.80" },
  { tag: "novita", provider: "Novita", inputPricePerM: "0.60", outputPricePerM: "3.00" },
  { tag: "venice", provider: "Venice", inputPricePerM: "0.75", outputPricePerM: "3.75" },
];

describe("cost arithmetic", () => {
  it("prices the seed's plan exactly: 10M in + 60M out", () => {
    expect(toCents(costOf(10_000_000, 60_000_000, "0.45", "2.25"))).toBe("139.50");
    expect(toCents(costOf(10_000_000, 60_000_000, "0.75", "3.75"))).toBe("232.50");
    expect(costOf(10_000_000, 60_000_000, "0.75", "3.75").equals(new Decimal("232.5"))).toBe(true);
  });

  it("does not drift the way binary floats do", () => {
    // 0.1 + 0.2 style: three datasets of 1M tokens at $0.1/M must be exactly $0.30.
    const sum = [1, 2, 3].map(() => costOf(1_000_000, 0, "0.1", "0")).reduce((a, c) => a.plus(c), new Decimal(0));
    expect(sum.toString()).toBe("0.3");
  });

  it("formats dollars to the cent with grouping and a sign", () => {
    expect(formatUsd(new Decimal("139.5"))).toBe("$139.50");
    expect(formatUsd(new Decimal("1234.005"))).toBe("$1,234.01");
    expect(formatUsd(new Decimal("-39.5"))).toBe("−$39.50");
  });

  it("reads budgets as people type them", () => {
    expect(parseBudget("100")?.toString()).toBe("100");
    expect(parseBudget("$1,000.50")?.toString()).toBe("1000.5");
    expect(parseBudget("-5")).toBeNull();
    expect(parseBudget("abc")).toBeNull();
    expect(parseBudget("1.234")).toBeNull();
  });
});

describe("the default plan", () => {
  it("is six datasets B3–B8: 60M output and exactly 10M input", () => {
    expect(DEFAULT_PLAN.map((d) => d.name)).toEqual(["B3", "B4", "B5", "B6", "B7", "B8"]);
    expect(DEFAULT_PLAN.every((d) => d.outputTokens === 10_000_000)).toBe(true);
    expect(DEFAULT_PLAN.reduce((a, d) => a + d.inputTokens, 0)).toBe(10_000_000);
  });
});

describe("coverage in dataset order", () => {
  it("$100 at DeepInfra covers B3–B6 fully and 30% of B7", () => {
    const c = coverage(DEFAULT_PLAN, new Decimal(100), "0.45", "2.25");
    expect(c.full).toEqual(["B3", "B4", "B5", "B6"]);
    expect(c.partial).toEqual({ name: "B7", percent: 30 });
    expect(c.text).toBe("covers B3–B6 fully and 30% of B7");
    expect(c.planFraction.equals(new Decimal(100).div("139.5"))).toBe(true);
  });

  it("$100 at Venice covers B3–B4 fully and 58% of B5", () => {
    // Per dataset ≈ $38.75: 2 × 38.75 = 77.50, 22.50 / 38.75 = 58%.
    const c = coverage(DEFAULT_PLAN, new Decimal(100), "0.75", "3.75");
    expect(c.text).toBe("covers B3–B4 fully and 58% of B5");
  });

  it("says when the whole plan is covered, one dataset, or almost nothing", () => {
    expect(coverage(DEFAULT_PLAN, new Decimal(250), "0.45", "2.25").text).toBe("covers the whole plan (B3–B8)");
    expect(coverage(DEFAULT_PLAN, new Decimal(30), "0.45", "2.25").text).toBe("covers B3 fully and 29% of B4");
    expect(coverage(DEFAULT_PLAN, new Decimal(10), "0.45", "2.25").text).toBe("covers 43% of B3");
    expect(coverage(DEFAULT_PLAN, new Decimal("0.01"), "0.45", "2.25").text).toBe("covers less than 1% of B3");
    expect(coverage([], new Decimal(10), "0.45", "2.25").text).toBe("no datasets in the plan");
  });

  it("covers exactly when the budget equals the cost", () => {
    const plan = [{ name: "A", inputTokens: 0, outputTokens: 1_000_000 }, { name: "B", inputTokens: 0, outputTokens: 1_000_000 }];
    const c = coverage(plan, new Decimal(2), "0", "1");
    expect(c.full).toEqual(["A", "B"]);
    expect(c.partial).toBeNull();
  });
});

describe("estimate across included providers", () => {
  it("finds the cheapest, the worst case, fit and shortfall; unpriced providers are never cheapest", () => {
    const e = estimate(DEFAULT_PLAN, new Decimal(100), [
      ...KIMI_INCLUDED,
      { tag: "mystery", provider: "Mystery", inputPricePerM: null, outputPricePerM: "0.01" },
    ]);
    expect(e.priced.map((p) => [p.provider, toCents(p.total)])).toEqual([
      ["DeepInfra", "139.50"],
      ["Together", "173.00"],
      ["Novita", "186.00"],
      ["Venice", "232.50"],
    ]);
    expect(e.cheapest?.provider).toBe("DeepInfra");
    expect(e.worstCase?.provider).toBe("Venice");
    expect(e.unpriced).toEqual([{ tag: "mystery", provider: "Mystery" }]);
    expect(e.priced.every((p) => !p.fits)).toBe(true);
    expect(toCents(e.cheapest!.difference)).toBe("-39.50");
    expect(e.totals).toEqual({ inputTokens: 10_000_000, outputTokens: 60_000_000 });

    const rich = estimate(DEFAULT_PLAN, new Decimal(250), KIMI_INCLUDED);
    expect(rich.priced.every((p) => p.fits)).toBe(true);
    expect(toCents(rich.cheapest!.difference)).toBe("110.50");
    expect(toCents(rich.worstCase!.difference)).toBe("17.50");
  });

  it("has no cheapest when nothing is priced", () => {
    const e = estimate(DEFAULT_PLAN, new Decimal(100), [{ tag: "x", provider: "X", inputPricePerM: null, outputPricePerM: null }]);
    expect(e.cheapest).toBeNull();
    expect(e.worstCase).toBeNull();
  });
});
