import { describe, expect, it } from "vitest";
import { backoffMs, retryDelayMs } from "@/lib/backoff";

// The one backoff of the OpenRouter client, the probe runner and the alert sender: the ceiling
// doubles after each failure up to the cap, and the wait is drawn from its upper half.
describe("backoff", () => {
  const delivery = { baseMs: 30_000, capMs: 3_600_000 };

  it("doubles the ceiling after each failure and waits between its half and all of it", () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n, delivery, mid))).toEqual([22_500, 45_000, 90_000, 180_000, 360_000]);
    expect(backoffMs(1, delivery, () => 0)).toBe(15_000);
    expect(backoffMs(1, delivery, () => 1)).toBe(30_000);
    expect(backoffMs(3, delivery, () => 0)).toBe(60_000);
    expect(backoffMs(3, delivery, () => 1)).toBe(120_000);
  });

  it("never waits longer than the cap, nor less than half of it once there", () => {
    expect(backoffMs(20, delivery, () => 1)).toBe(3_600_000);
    expect(backoffMs(20, delivery, () => 0)).toBe(1_800_000);
    expect(backoffMs(60, { baseMs: 500, capMs: 60_000 }, () => 0.5)).toBe(45_000);
  });

  it("waits what the server asked for (Retry-After) as it is, and the backoff otherwise", () => {
    const client = { baseMs: 500, capMs: 60_000 };
    expect(retryDelayMs(1, client, 2_000, () => 1)).toBe(2_000);
    expect(retryDelayMs(4, client, 0, () => 1)).toBe(0);
    expect(retryDelayMs(1, client, 90_000, () => 1)).toBe(90_000); // the caller decides whether that is too long
    expect(retryDelayMs(2, client, null, () => 0)).toBe(500);
    expect(retryDelayMs(2, client, undefined, () => 1)).toBe(1_000);
  });

  it("spreads the waits of many retries over the upper half", () => {
    const waits = Array.from({ length: 2_000 }, () => backoffMs(2, { baseMs: 1_000, capMs: 60_000 }));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(1_000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(2_000);
    // Uniform over [1000, 2000]: both quarters of the range are hit, the mean is near 1500.
    expect(waits.some((w) => w < 1_250)).toBe(true);
    expect(waits.some((w) => w > 1_750)).toBe(true);
    const mean = waits.reduce((s, w) => s + w, 0) / waits.length;
    expect(mean).toBeGreaterThan(1_450);
    expect(mean).toBeLessThan(1_550);
  });
});
