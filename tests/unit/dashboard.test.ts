import { describe, expect, it } from "vitest";
import { fillHours } from "@/lib/queries/dashboard";
import { demoPollTimes, FINE_DAYS } from "@/replica/demo-history";
import { providersAt, SCRIPTED_EVENTS } from "@/replica/demo-scenario";
import { applyDrift, createDrift } from "@/replica/drift";
import { endpointJson } from "@/replica/server";
import { kimiK25 } from "@/replica/data/kimi-k2.5";

const HOUR = 3_600_000;

describe("fillHours (the home page's changes per hour)", () => {
  const since = new Date("2026-06-01T00:30:00Z");
  it("puts each count in its hour, oldest first, and zero where nothing changed", () => {
    const filled = fillHours(
      [
        { hour: new Date(since.getTime()), n: 2 },
        { hour: new Date(since.getTime() + 5 * HOUR), n: 1 },
        { hour: new Date(since.getTime() + 23 * HOUR), n: 4 },
      ],
      since,
      24,
    );
    expect(filled.perHour).toHaveLength(24);
    expect(filled.perHour[0]).toBe(2);
    expect(filled.perHour[5]).toBe(1);
    expect(filled.perHour[23]).toBe(4);
    expect(filled.perHour.filter((n) => n === 0)).toHaveLength(21);
    expect(filled.total).toBe(7);
    expect(filled.since).toBe(since.toISOString());
  });
  it("counts a change at the window's very end in the last hour", () => {
    expect(fillHours([{ hour: new Date(since.getTime() + 24 * HOUR), n: 1 }], since, 24).perHour[23]).toBe(1);
  });
  it("is all zeros without changes", () => {
    expect(fillHours([], since, 24)).toEqual({ total: 0, perHour: new Array(24).fill(0), since: since.toISOString() });
  });
});

describe("the demo's generated month", () => {
  const end = new Date("2026-06-30T12:00:00Z");
  it("polls hourly, then every 5 minutes for the last days, ending at the end", () => {
    const times = demoPollTimes(end);
    expect(times[times.length - 1]).toEqual(end);
    expect(times[0].getTime()).toBe(end.getTime() - 30 * 24 * HOUR + HOUR);
    const fineFrom = end.getTime() - FINE_DAYS * 24 * HOUR;
    expect(times.filter((t) => t.getTime() >= fineFrom)).toHaveLength(FINE_DAYS * 288 + 1);
    expect(times.every((t, i) => i === 0 || t > times[i - 1])).toBe(true);
  });
  it("is the same on every run, and scripts its four events", () => {
    const at = new Date(end.getTime() - 10 * 24 * HOUR);
    expect(providersAt(at, end, 1)).toEqual(providersAt(at, end, 1));
    const before = providersAt(new Date(end.getTime() - 20 * 24 * HOUR), end);
    const after = providersAt(end, end);
    const tag = (list: typeof before, t: string) => list.find((p) => p.tag === t);
    expect(tag(before, "deepinfra")?.inputPerM).toBe("0.45");
    expect(tag(after, "deepinfra")?.inputPerM).toBe("0.40");
    expect(tag(before, "together")?.quantization).toBe("unknown");
    expect(tag(after, "together")?.quantization).toBe("fp8");
    expect(tag(before, "nebius/fp8")).toBeUndefined();
    expect(tag(after, "nebius/fp8")?.quantization).toBe("fp8");
    const outage = new Date(end.getTime() - SCRIPTED_EVENTS.outage.offsetMs + HOUR);
    expect(tag(providersAt(outage, end), "novita")).toMatchObject({ status: -2 });
    expect(tag(providersAt(outage, end), "novita")?.uptime).toBeLessThan(50);
    expect(tag(after, "novita")?.status).toBe(0);
    // Healthy endpoints never dip under the 95% line outside the outage.
    for (let t = end.getTime() - 30 * 24 * HOUR; t <= end.getTime(); t += 7 * HOUR) {
      for (const p of providersAt(new Date(t), end)) {
        if (p.status === 0) expect(p.uptime).toBeGreaterThanOrEqual(95);
      }
    }
  });
});

describe("replica drift (demo only)", () => {
  const answer = () => kimiK25.providers.map((p, i) => endpointJson(kimiK25, p, i, 0, true) as Record<string, unknown>);
  const prices = (endpoints: Array<Record<string, unknown>>) =>
    endpoints.map((e) => `${String(e.tag)} ${JSON.stringify((e.pricing as Record<string, string>).prompt)} ${JSON.stringify((e.pricing as Record<string, string>).completion)}`);

  it("moves exactly one price per step, the same way for the same seed, within 10% of the recorded price", () => {
    const a = createDrift({ seed: 3 });
    const b = createDrift({ seed: 3 });
    let previous = prices(answer());
    for (let step = 0; step < 200; step++) {
      const x = answer();
      const y = answer();
      applyDrift(kimiK25.id, x, a);
      applyDrift(kimiK25.id, y, b);
      expect(x).toEqual(y);
      const now = prices(x);
      expect(now.filter((line, i) => line !== previous[i])).toHaveLength(1);
      previous = now;
      for (const [i, e] of x.entries()) {
        const recorded = kimiK25.providers[i];
        const input = Number((e.pricing as Record<string, string>).prompt) * 1e6;
        expect(Math.abs(input - Number(recorded.inputPerM))).toBeLessThanOrEqual(Number(recorded.inputPerM) * 0.1 + 1e-9);
        if (recorded.status === 0) expect(e.uptime_last_30m).toBeGreaterThanOrEqual(95);
        else expect(e.pricing).toEqual(answer()[i].pricing); // a degraded endpoint is left alone
      }
    }
  });
});
