import { describe, expect, it } from "vitest";
import { chartDays } from "@/lib/activity/queries";
import Decimal from "decimal.js";
import { compareViews, differs, type Tolerance } from "@/lib/activity/reconcile";
import { parseEnv } from "@/lib/env";

describe("reconciliation tolerance: a day is flagged over 1% OR over $0.01", () => {
  it("flags the $0.02 gap on a $6.38 day (0.31%): over a cent is enough", () => {
    expect(differs("6.38", "6.36")).toBe(true);
  });

  it("does not flag a gap exactly at 1% when it is also within a cent", () => {
    expect(differs("0.50", "0.495")).toBe(false); // $0.005 = exactly 1% of $0.50
    expect(differs("0.50", "0.4949")).toBe(true); // $0.0051 = 1.02%: over 1%, though under a cent
  });

  it("does not flag a gap of exactly $0.01 when it is also within 1%", () => {
    expect(differs("100.00", "100.01")).toBe(false); // $0.01, 0.01%
    expect(differs("100.00", "100.011")).toBe(true); // $0.011: over a cent, though 0.011%
  });

  it("does not flag a gap exactly at both thresholds, nor one just under both", () => {
    expect(differs("1.00", "0.99")).toBe(false); // $0.01 = exactly 1% of $1.00
    expect(differs("0.80", "0.7921")).toBe(false); // $0.0079, under $0.01 and under 1% ($0.008)
    expect(differs("0.80", "0.80")).toBe(false);
  });

  it("flags a large percentage and a large amount alike", () => {
    expect(differs("100.00", "101.05")).toBe(true); // 1.04% and $1.05
    expect(differs("0", "0.011")).toBe(true);
    expect(differs("0", "0.009")).toBe(true); // 100% of the larger
  });

  it("takes other thresholds when configured", () => {
    const loose: Tolerance = { ratio: new Decimal("0.05"), usd: new Decimal("0.10") };
    expect(differs("6.38", "6.36", loose)).toBe(false);
    expect(differs("2.00", "1.85", loose)).toBe(true); // $0.15 > $0.10 (7.5% > 5% too)
    expect(differs("100.00", "104.00", loose)).toBe(true); // $4 > $0.10, though 3.8% < 5%
    expect(differs("0.10", "0.094", loose)).toBe(true); // 6% > 5%, though $0.006 < $0.10
    expect(differs("0.10", "0.096", loose)).toBe(false); // 4% and $0.004
  });

  it("compares every pair of the views present", () => {
    expect(compareViews(["10.00", null, null])).toEqual({ flagged: false, largestGapUsd: null });
    expect(compareViews(["10.00", "10.01", "10.00"])).toEqual({ flagged: false, largestGapUsd: "0.01" });
    expect(compareViews(["10.00", "10.05", "10.00"])).toEqual({ flagged: true, largestGapUsd: "0.05" });
    expect(compareViews(["10.00", "10.05", "9.80"])).toEqual({ flagged: true, largestGapUsd: "0.25" });
  });
});

describe("the reconciliation settings", () => {
  it("default to 1% and $0.01 and take decimals", () => {
    expect(parseEnv({})).toMatchObject({ RECONCILE_TOLERANCE_PERCENT: "1", RECONCILE_TOLERANCE_USD: "0.01" });
    expect(parseEnv({ RECONCILE_TOLERANCE_PERCENT: "0.5", RECONCILE_TOLERANCE_USD: "0.05" })).toMatchObject({ RECONCILE_TOLERANCE_PERCENT: "0.5", RECONCILE_TOLERANCE_USD: "0.05" });
  });

  it("refuse a value that is not a non-negative decimal, naming the setting", () => {
    expect(() => parseEnv({ RECONCILE_TOLERANCE_PERCENT: "1%" })).toThrow(/RECONCILE_TOLERANCE_PERCENT: must be a non-negative decimal/);
    expect(() => parseEnv({ RECONCILE_TOLERANCE_PERCENT: "150" })).toThrow(/RECONCILE_TOLERANCE_PERCENT: must be at most 100/);
    expect(() => parseEnv({ RECONCILE_TOLERANCE_USD: "-0.01" })).toThrow(/RECONCILE_TOLERANCE_USD: must be a non-negative decimal/);
    expect(() => parseEnv({ RECONCILE_TOLERANCE_USD: "$0.01" })).toThrow(/RECONCILE_TOLERANCE_USD/);
  });
});

describe("chartDays", () => {
  it("gives every day from the first with data to today, empty days at zero, providers by spend", () => {
    const now = new Date("2026-12-01T10:00:00Z");
    const { days, providers } = chartDays(
      [
        { date: "2026-11-28", provider: "Parasail", usageUsd: "1.000000", incomplete: false, demo: true },
        { date: "2026-11-28", provider: "DeepInfra", usageUsd: "2.500000", incomplete: false, demo: true },
        { date: "2026-11-30", provider: "Parasail", usageUsd: "0.250000", incomplete: false, demo: true },
        { date: "2026-12-01", provider: "DeepInfra", usageUsd: "0.125000", incomplete: true, demo: true },
      ],
      now,
    );
    const withoutToday = chartDays([{ date: "2026-11-30", provider: "Parasail", usageUsd: "0.250000", incomplete: false, demo: true }], now);
    expect(withoutToday.days.map((d) => d.date)).toEqual(["2026-11-30"]);
    expect(providers).toEqual(["DeepInfra", "Parasail"]);
    expect(days.map((d) => [d.date, d.totalUsd, d.incomplete])).toEqual([
      ["2026-11-28", "3.50", false],
      ["2026-11-29", "0.00", false],
      ["2026-11-30", "0.25", false],
      ["2026-12-01", "0.13", true],
    ]);
  });
});
