import { expect } from "vitest";
import type { Db } from "../../lib/db/engines";

// What the integration tests of a killed poller (on either engine) check is left behind. Vitest
// only: the browser tests import poller-child.ts, and must not load Vitest.

/** After a poller killed in its first cycle: that cycle never finished and wrote nothing. */
export async function expectKilledFirstCycleLeftNothing(db: Db): Promise<void> {
  const cycles = await db.pollCycle.findMany();
  expect(cycles).toHaveLength(1);
  expect(cycles[0].finishedAt).toBeNull(); // the killed cycle never finished
  expect(await db.modelPoll.count()).toBe(0);
  expect(await db.endpointSample.count()).toBe(0);
  expect(await db.endpoint.count()).toBe(0);
}
