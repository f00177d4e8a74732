import { describe, expect, it } from "vitest";
import { uptimeDomain } from "@/components/history/uptime-axis";

// The uptime chart's axis is zoomed to the data (issue 18, item 16), keeping the threshold inside.

describe("uptimeDomain", () => {
  it("zooms to uptimes between 97 and 100 with the threshold at 95: from 94% up", () => {
    expect(uptimeDomain([97.6, 99.8, 98.2, null, 100], 95)).toEqual([94, 100]);
  });

  it("goes under a provider's outage, in steps of 5 when the span is wide", () => {
    // Novita's outage at 35%: a tenth of the span (6.5) under it, rounded down to 25.
    expect(uptimeDomain([99.1, 35, 98], 95)).toEqual([25, 100]);
  });

  it("keeps the threshold in the plot when every line is above it", () => {
    const [bottom, top] = uptimeDomain([99.9, 100], 90);
    expect(bottom).toBeLessThan(90);
    expect(bottom).toBe(89);
    expect(top).toBe(100);
  });

  it("never goes under 0, and copes with no data at all", () => {
    expect(uptimeDomain([0, 50], 95)).toEqual([0, 100]);
    expect(uptimeDomain([], 95)).toEqual([94, 100]);
    expect(uptimeDomain([Number.NaN, undefined])).toEqual([99.5, 100]);
  });
});
