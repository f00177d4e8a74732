import { describe, expect, it } from "vitest";
import { bucketFor, fillBuckets, rangeWindow, type SparseBucket } from "@/lib/history/buckets";

const at = (iso: string) => new Date(iso);

describe("fillBuckets", () => {
  const from = at("2026-01-01T00:00:00Z");
  const to = at("2026-01-01T00:30:00Z");

  it("returns every bucket of the window, with gaps as null values and 0 polls", () => {
    const rows: SparseBucket<number>[] = [
      { t: at("2026-01-01T00:00:00Z"), value: 99.5, min: 99, max: 100, polls: 1 },
      { t: at("2026-01-01T00:15:00Z"), value: 0, min: 0, max: 0, polls: 2 },
    ];
    const points = fillBuckets(rows, from, to, 300);
    expect(points.map((p) => p.t)).toEqual([
      "2026-01-01T00:00:00.000Z",
      "2026-01-01T00:05:00.000Z",
      "2026-01-01T00:10:00.000Z",
      "2026-01-01T00:15:00.000Z",
      "2026-01-01T00:20:00.000Z",
      "2026-01-01T00:25:00.000Z",
    ]);
    expect(points[0]).toEqual({ t: "2026-01-01T00:00:00.000Z", value: 99.5, min: 99, max: 100, polls: 1 });
    expect(points[1]).toEqual({ t: "2026-01-01T00:05:00.000Z", value: null, min: null, max: null, polls: 0 });
    // A real zero is kept as a zero, not confused with a gap.
    expect(points[3]).toMatchObject({ value: 0, polls: 2 });
  });

  it("keeps decimal strings as they came and drops rows outside the window", () => {
    const rows: SparseBucket<string>[] = [
      { t: at("2025-12-31T23:55:00Z"), value: "1.00", min: "1.00", max: "1.00", polls: 1 },
      { t: at("2026-01-01T00:25:00Z"), value: "0.45", min: "0.45", max: "0.50", polls: 3 },
      { t: at("2026-01-01T00:30:00Z"), value: "9.99", min: "9.99", max: "9.99", polls: 1 },
    ];
    const points = fillBuckets(rows, from, to, 300);
    expect(points).toHaveLength(6);
    expect(points[5]).toMatchObject({ value: "0.45", max: "0.50", polls: 3 });
    expect(points.filter((p) => p.polls > 0)).toHaveLength(1);
  });

  it("an empty window gives no points, and a zero width is refused", () => {
    expect(fillBuckets([], from, from, 300)).toEqual([]);
    expect(() => fillBuckets([], from, to, 0)).toThrow(new Error("bucketSeconds must be positive"));
  });
});

describe("bucketFor and rangeWindow", () => {
  it("defaults each range to its finest allowed bucket and clamps finer requests", () => {
    expect(bucketFor("24h")).toEqual({ bucket: "5m", seconds: 300 });
    expect(bucketFor("7d")).toEqual({ bucket: "1h", seconds: 3600 });
    expect(bucketFor("30d")).toEqual({ bucket: "6h", seconds: 21600 });
    expect(bucketFor("90d", "5m")).toEqual({ bucket: "1d", seconds: 86400 });
    expect(bucketFor("24h", "1h")).toEqual({ bucket: "1h", seconds: 3600 });
  });

  it("covers the range in whole UTC-aligned buckets ending with the one that holds now", () => {
    const w = rangeWindow("24h", 300, at("2026-01-02T10:07:30Z"));
    expect(w.to.toISOString()).toBe("2026-01-02T10:10:00.000Z");
    expect(w.from.toISOString()).toBe("2026-01-01T10:10:00.000Z");
    expect((w.to.getTime() - w.from.getTime()) / 300_000).toBe(288);
    const d = rangeWindow("90d", 86400, at("2026-01-02T10:07:30Z"));
    expect(d.to.toISOString()).toBe("2026-01-03T00:00:00.000Z");
    expect((d.to.getTime() - d.from.getTime()) / 86_400_000).toBe(90);
  });
});
