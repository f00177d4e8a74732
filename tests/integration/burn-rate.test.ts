import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { MIN_BURN_SPAN_MINUTES, spendOverview } from "@/lib/spend/queries";
import { engines } from "../helpers/db";

// The burn rate says the window it was really measured over, and there is none until the
// snapshots span MIN_BURN_SPAN_MINUTES.

const MIN = 60_000;
const T0 = new Date("2026-11-30T08:00:00Z");
const budget = { amountUsd: "100", startAt: new Date(T0.getTime() - 60 * MIN), saved: true };

describe.each(engines)("burn rate on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  beforeAll(async () => {
    opened = await engine.open();
  });
  afterAll(async () => opened?.close());
  beforeEach(async () => {
    await opened.db.spendSnapshot.deleteMany();
  });

  /** Snapshots at these minutes after T0, with these usages (USD). */
  const snapshots = (points: Array<[number, string]>) =>
    opened.db.spendSnapshot.createMany({ data: points.map(([m, usage]) => ({ observedAt: new Date(T0.getTime() + m * MIN), usage })) });

  it("shows no rate from two snapshots two minutes apart, and says how much there is", async () => {
    await snapshots([[0, "10"], [2, "10.50"]]);
    const overview = await spendOverview(opened.db, budget, new Date(T0.getTime() + 2 * MIN));
    expect(MIN_BURN_SPAN_MINUTES).toBe(30);
    expect(overview.burn).toBeNull();
    expect(overview.burnPending).toEqual({ snapshots: 2, spanMinutes: 2, minimumMinutes: 30 });
    expect(overview.runOut).toBeNull(); // no rate, no projection
    expect(overview.spent).toBe("0.50"); // what was spent is still known

    const one = await spendOverview(opened.db, budget, new Date(T0.getTime() + MIN));
    expect(one.burnPending).toEqual({ snapshots: 1, spanMinutes: 0, minimumMinutes: 30 });
  });

  it("measures from 30 minutes of snapshots on, over the span it really had", async () => {
    await snapshots([[0, "10"], [15, "10.25"], [30, "10.50"]]);
    const overview = await spendOverview(opened.db, budget, new Date(T0.getTime() + 30 * MIN));
    expect(overview.burn).toEqual({
      usdPerHour: "1.0000",
      windowHours: 6,
      from: T0.toISOString(),
      to: new Date(T0.getTime() + 30 * MIN).toISOString(),
      spanMinutes: 30,
    });
    expect(overview.burnPending).toBeNull();
  });

  it("with ten hours of snapshots, uses the last six hours of them and says so", async () => {
    // $1 an hour for the first four hours, then $2 an hour.
    const points: Array<[number, string]> = [];
    for (let h = 0; h <= 10; h++) points.push([h * 60, String(h <= 4 ? 10 + h : 14 + 2 * (h - 4))]);
    await snapshots(points);
    const now = new Date(T0.getTime() + 10 * 60 * MIN);
    const overview = await spendOverview(opened.db, { ...budget, startAt: T0 }, now);
    expect(overview.burn).toMatchObject({ usdPerHour: "2.0000", from: new Date(T0.getTime() + 4 * 60 * MIN).toISOString(), to: now.toISOString(), spanMinutes: 360 });
  });
});
