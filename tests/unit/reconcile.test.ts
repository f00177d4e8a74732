import { describe, expect, it } from "vitest";
import { chartDays } from "@/lib/activity/queries";
import { compareViews, differs } from "@/lib/activity/reconcile";

describe("reconciliation tolerance", () => {
  it("flags only a gap over both 1% and $0.01", () => {
    expect(differs("100.00", "100.99")).toBe(false); // 0.99% of $100.99
    expect(differs("100.00", "101.05")).toBe(true); // 1.04%
    expect(differs("0.50", "0.509")).toBe(false); // 1.8%, but under a cent
    expect(differs("0.50", "0.52")).toBe(true); // 3.8% and two cents
    expect(differs("0", "0.011")).toBe(true);
  });

  it("compares every pair of the views present", () => {
    expect(compareViews(["10.00", null, null])).toEqual({ flagged: false, largestGapUsd: null });
    expect(compareViews(["10.00", "10.05", "10.00"])).toEqual({ flagged: false, largestGapUsd: "0.05" });
    expect(compareViews(["10.00", "10.05", "9.80"])).toEqual({ flagged: true, largestGapUsd: "0.25" });
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
