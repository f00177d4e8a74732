import { describe, expect, it } from "vitest";
import { nextScheduledPoll, startSchedule } from "@/lib/poller/schedule";
import { isNewerSnapshot, snapshotVersion } from "@/lib/snapshot-version";

describe("the scheduler's next poll", () => {
  const start = Date.parse("2026-12-01T10:00:00Z");
  const schedule = startSchedule(start, 300, 2_000);

  it("is the first poll two seconds after start, then every interval counted from the start", () => {
    expect(new Date(nextScheduledPoll(schedule, start)).toISOString()).toBe("2026-12-01T10:00:02.000Z");
    expect(new Date(nextScheduledPoll(schedule, start + 2_000)).toISOString()).toBe("2026-12-01T10:00:02.000Z");
    expect(new Date(nextScheduledPoll(schedule, start + 3_000)).toISOString()).toBe("2026-12-01T10:05:00.000Z");
    expect(new Date(nextScheduledPoll(schedule, start + 300_000)).toISOString()).toBe("2026-12-01T10:05:00.000Z");
    expect(new Date(nextScheduledPoll(schedule, start + 300_001)).toISOString()).toBe("2026-12-01T10:10:00.000Z");
  });
});

describe("snapshot identity", () => {
  const shown = { polledAt: "2026-12-01T10:00:00.000Z", failedAt: null, verdictsAt: null };

  it("names the snapshot, its failure and the verdicts shown, for query keys", () => {
    expect(snapshotVersion(shown)).toBe("2026-12-01T10:00:00.000Z|ok|unprobed");
    expect(snapshotVersion({ polledAt: null, failedAt: null, verdictsAt: null })).toBe("none|ok|unprobed");
    expect(snapshotVersion({ ...shown, failedAt: "2026-12-01T10:05:01.000Z" })).toBe("2026-12-01T10:00:00.000Z|2026-12-01T10:05:01.000Z|unprobed");
    expect(snapshotVersion({ ...shown, verdictsAt: "2026-12-01T09:30:00.000Z" })).toBe("2026-12-01T10:00:00.000Z|ok|2026-12-01T09:30:00.000Z");
  });

  it("a later poll, successful or failed, is newer; an older answer never is", () => {
    expect(isNewerSnapshot({ ...shown, polledAt: "2026-12-01T10:05:00.000Z" }, shown)).toBe(true);
    expect(isNewerSnapshot({ ...shown, failedAt: "2026-12-01T10:05:01.000Z" }, shown)).toBe(true);
    expect(isNewerSnapshot(shown, shown)).toBe(false);
    expect(isNewerSnapshot({ ...shown, polledAt: "2026-12-01T09:55:00.000Z" }, shown)).toBe(false);
    expect(isNewerSnapshot(shown, { polledAt: null, failedAt: null, verdictsAt: null })).toBe(true);
    // A reader a moment behind, from before the failure the page shows: not newer.
    const failed = { ...shown, failedAt: "2026-12-01T10:05:01.000Z" };
    expect(isNewerSnapshot(shown, failed)).toBe(false);
    expect(isNewerSnapshot({ ...shown, polledAt: "2026-12-01T10:10:00.000Z" }, failed)).toBe(true);
  });

  it("a probe run that finished after the verdicts shown is newer, even when the poll shown is later than it", () => {
    const probed = { ...shown, polledAt: "2026-12-01T10:20:00.000Z", verdictsAt: "2026-12-01T09:00:00.000Z" };
    expect(isNewerSnapshot({ ...probed, verdictsAt: "2026-12-01T10:15:00.000Z" }, probed)).toBe(true);
    expect(isNewerSnapshot({ ...probed, verdictsAt: "2026-12-01T08:00:00.000Z" }, probed)).toBe(false);
    expect(isNewerSnapshot({ ...probed, verdictsAt: null }, probed)).toBe(false);
  });
});
