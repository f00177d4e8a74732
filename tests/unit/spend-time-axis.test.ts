import { describe, expect, it } from "vitest";
import { timeAxis } from "@/components/spend/time-axis";

// The spend chart's time axis: its tick labels never read alike, whatever the span. (A CI run
// drew "03:59:03 03:59:03" when two snapshots fell in the same second and the axis put its ticks
// at the data.)

const at = (iso: string) => Date.parse(iso);

describe("the spend chart's time axis", () => {
  it.each([
    ["five seconds (snapshots of a test)", at("2026-12-04T03:59:01.400Z"), at("2026-12-04T03:59:06.100Z"), /^\d{2}:\d{2}:\d{2}$/],
    ["under a second", at("2026-12-04T03:59:03.100Z"), at("2026-12-04T03:59:03.900Z"), /^\d{2}:\d{2}:\d{2}\.\d{3}$/],
    ["four minutes and a second", at("2026-12-04T03:59:59.900Z"), at("2026-12-04T04:04:00.900Z"), /^12-04 \d{2}:\d{2}$/],
    ["a month", at("2026-11-04T00:00:00Z"), at("2026-12-04T00:00:00Z"), /^1[12]-\d{2} \d{2}:\d{2}$/],
  ])("%s: five evenly spaced ticks from end to end, every label different", (_name, lo, hi, shape) => {
    const { ticks, label } = timeAxis(lo, hi);
    expect(ticks).toHaveLength(5);
    expect(ticks[0]).toBe(lo);
    expect(ticks[4]).toBe(hi);
    const labels = ticks.map(label);
    for (const l of labels) expect(l).toMatch(shape);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it("the worst case for truncation: ticks exactly one unit apart, starting just before a boundary", () => {
    for (const [lo, step] of [
      [at("2026-12-04T20:33:59.999Z"), 60_000],
      [at("2026-12-04T20:33:59.999Z"), 1_000],
    ] as const) {
      const labels = timeAxis(lo, lo + 4 * step).ticks.map(timeAxis(lo, lo + 4 * step).label);
      expect(new Set(labels).size).toBe(5);
    }
  });
});
