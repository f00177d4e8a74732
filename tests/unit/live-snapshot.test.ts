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
  const shown = { polledAt: "2026-12-01T10:00:00.000Z", failedAt: null };

  it("names the snapshot and its failure, for query keys", () => {
    expect(snapshotVersion(shown)).toBe("2026-12-01T10:00:00.000Z|ok");
    expect(snapshotVersion({ polledAt: null, failedAt: null })).toBe("none|ok");
    expect(snapshotVersion({ ...shown, failedAt: "2026-12-01T10:05:01.000Z" })).toBe("2026-12-01T10:00:00.000Z|2026-12-01T10:05:01.000Z");
  });

  it("a later poll, successful or failed, is newer; an older answer never is", () => {
    expect(isNewerSnapshot({ polledAt: "2026-12-01T10:05:00.000Z", failedAt: null }, shown)).toBe(true);
    expect(isNewerSnapshot({ ...shown, failedAt: "2026-12-01T10:05:01.000Z" }, shown)).toBe(true);
    expect(isNewerSnapshot(shown, shown)).toBe(false);
    expect(isNewerSnapshot({ polledAt: "2026-12-01T09:55:00.000Z", failedAt: null }, shown)).toBe(false);
    expect(isNewerSnapshot(shown, { polledAt: null, failedAt: null })).toBe(true);
  });
});
