import { describe, expect, it } from "vitest";
import { burnDetail } from "@/components/spend/burn-detail";

describe("the burn rate's detail line", () => {
  it("names the window really used", () => {
    const burn = { usdPerHour: "1.0000", windowHours: 6, from: "2026-11-30T08:00:00.000Z", to: "2026-11-30T10:10:00.000Z", spanMinutes: 130 };
    expect(burnDetail({ burn, burnPending: null })).toBe("over the 2 h 10 min from 2026-11-30 08:00 UTC to 2026-11-30 10:10 UTC (the last 6 h at most)");
    expect(burnDetail({ burn: { ...burn, spanMinutes: 360 }, burnPending: null })).toContain("over the 6 h from");
    expect(burnDetail({ burn: { ...burn, spanMinutes: 30 }, burnPending: null })).toContain("over the 30 min from");
  });

  it("says what it waits for when there is too little data", () => {
    expect(burnDetail({ burn: null, burnPending: { snapshots: 4, spanMinutes: 2, minimumMinutes: 30 } })).toBe(
      "no rate until the snapshots span 30 min (2 min so far)",
    );
    expect(burnDetail({ burn: null, burnPending: { snapshots: 1, spanMinutes: 0, minimumMinutes: 30 } })).toBe(
      "no rate until the snapshots span 30 min (1 snapshot so far)",
    );
    expect(burnDetail({ burn: null, burnPending: null })).toBe("no snapshot yet");
  });
});
