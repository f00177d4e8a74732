import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { seriesQuery } from "@/lib/history/params";
import { rollupHistory } from "@/lib/history/rollup";
import { modelSeries, type Series } from "@/lib/history/series";
import { seedWatchedModels } from "@/lib/watched-models";
import { engines } from "../helpers/db";

const MODEL = "synthetic/history-test";
const NOW = new Date("2026-03-10T12:02:00Z");
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

async function endpoint(opened: OpenedDb, tag: string, provider: string) {
  const e = await opened.db.endpoint.create({
    data: { modelId: MODEL, tag, providerName: provider, firstSeenAt: NOW, lastSeenAt: NOW },
  });
  const v = await opened.db.endpointVersion.create({
    data: {
      endpointId: e.id, sha256: tag, name: tag, modelPermaslug: MODEL, providerName: provider,
      quantization: "fp8", supportedParameters: [], pricing: {}, extra: {}, firstSeenAt: NOW,
    },
  });
  return { id: e.id, versionId: v.id };
}

const nonEmpty = (s: Series | null, tag: string) =>
  s?.endpoints.find((e) => e.tag === tag)?.points.filter((p) => p.polls > 0) ?? [];

describe.each(engines)("history series on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let a: { id: number; versionId: number };
  let b: { id: number; versionId: number };

  beforeAll(async () => {
    opened = await engine.open();
    await seedWatchedModels(opened.db, [MODEL]);
    a = await endpoint(opened, "alpha", "Alpha");
    b = await endpoint(opened, "beta/fp8", "Beta");
  });
  afterAll(async () => opened?.close());

  it("buckets with date_bin: means, min, max and poll counts per bucket, gaps as null", async () => {
    const at = (iso: string) => new Date(iso);
    await opened.db.endpointSample.createMany({
      data: [
        { endpointId: a.id, versionId: a.versionId, observedAt: at("2026-03-10T11:00:00Z"), uptime30m: 90, inputPricePerM: "0.45", outputPricePerM: "2.25" },
        { endpointId: a.id, versionId: a.versionId, observedAt: at("2026-03-10T11:01:00Z"), uptime30m: 100, inputPricePerM: "0.5", outputPricePerM: "2.25" },
        { endpointId: a.id, versionId: a.versionId, observedAt: at("2026-03-10T11:06:00Z"), uptime30m: 0, inputPricePerM: "0.5", outputPricePerM: "2.25" },
        { endpointId: a.id, versionId: a.versionId, observedAt: at("2026-03-10T12:01:00Z"), uptime30m: null },
      ],
    });
    const series = await modelSeries(opened.db, MODEL, "uptime30m", "24h", { now: NOW });
    expect(series).toMatchObject({ bucket: "5m", bucketSeconds: 300, unit: "%", to: "2026-03-10T12:05:00.000Z" });
    const alpha = series?.endpoints.find((e) => e.tag === "alpha");
    expect(alpha?.provider).toBe("Alpha");
    expect(alpha?.points).toHaveLength(288);
    const byT = new Map(alpha?.points.map((p) => [p.t, p]));
    expect(byT.get("2026-03-10T11:00:00.000Z")).toEqual({ t: "2026-03-10T11:00:00.000Z", value: 95, min: 90, max: 100, polls: 2 });
    // A real zero stays a zero; an empty bucket is a gap; a poll without a value is counted but has no value.
    expect(byT.get("2026-03-10T11:05:00.000Z")).toMatchObject({ value: 0, polls: 1 });
    expect(byT.get("2026-03-10T11:10:00.000Z")).toEqual({ t: "2026-03-10T11:10:00.000Z", value: null, min: null, max: null, polls: 0 });
    expect(byT.get("2026-03-10T12:00:00.000Z")).toMatchObject({ value: null, polls: 1 });
    expect(series?.endpoints.map((e) => e.tag)).toEqual(["alpha"]); // beta has no polls in range

    const price = await modelSeries(opened.db, MODEL, "inputPrice", "24h", { now: NOW });
    const p = new Map(price?.endpoints[0].points.map((x) => [x.t, x]));
    // Prices stay exact decimal strings; the point is the price in effect at the bucket's end.
    expect(price?.aggregate).toBe("last");
    expect(series?.aggregate).toBe("mean");
    expect(p.get("2026-03-10T11:00:00.000Z")).toMatchObject({ value: "0.50", min: "0.45", max: "0.50", polls: 2 });
    await opened.db.endpointSample.deleteMany({});
  });

  it("a price point is the price in effect at the end of its bucket, with the bucket's min and max, also from hourly rows", async () => {
    // 10:00 to 10:59: $0.45, a spike to $0.75, then $0.72 until the end of the hour.
    const prices: Array<[string, string]> = [["10:01", "0.45"], ["10:02", "0.75"], ["10:03", "0.72"], ["10:31", "0.72"], ["10:58", "0.72"]];
    await opened.db.endpointSample.createMany({
      data: prices.map(([hm, price]) => ({
        endpointId: a.id, versionId: a.versionId, observedAt: new Date(`2026-03-10T${hm}:00Z`), inputPricePerM: price, outputPricePerM: "2.25",
      })),
    });
    const five = await modelSeries(opened.db, MODEL, "inputPrice", "24h", { now: NOW });
    const at5 = new Map(nonEmpty(five, "alpha").map((x) => [x.t, x]));
    // Before: the bucket's maximum, $0.75, was plotted although $0.72 was the price.
    expect(at5.get("2026-03-10T10:00:00.000Z")).toMatchObject({ value: "0.72", min: "0.45", max: "0.75", polls: 3 });
    expect(at5.get("2026-03-10T10:30:00.000Z")).toMatchObject({ value: "0.72", min: "0.72", max: "0.72", polls: 1 });

    const raw = await modelSeries(opened.db, MODEL, "inputPrice", "7d", { now: NOW });
    expect(nonEmpty(raw, "alpha")).toEqual([{ t: "2026-03-10T10:00:00.000Z", value: "0.72", min: "0.45", max: "0.75", polls: 5 }]);
    // Rolled up (retention 0 days: the hour's raw rows go), the hourly row answers the same.
    await rollupHistory(opened.db, { retentionDays: 0, now: NOW });
    expect(await opened.db.endpointSample.count({ where: { endpointId: a.id } })).toBe(0);
    const hourly = await opened.db.endpointHourly.findFirstOrThrow({ where: { endpointId: a.id } });
    expect(hourly.inputPriceLast?.toString()).toBe("0.72");
    expect(nonEmpty(await modelSeries(opened.db, MODEL, "inputPrice", "7d", { now: NOW }), "alpha")).toEqual(nonEmpty(raw, "alpha"));
    await opened.db.endpointHourly.deleteMany({});
  });

  it("the server clamps the bucket: no query asks for 5-minute buckets over 90 days", async () => {
    const s = await modelSeries(opened.db, MODEL, "uptime30m", "90d", { now: NOW, bucket: "5m" });
    expect(s).toMatchObject({ bucket: "1d", bucketSeconds: 86400 });
    expect(s?.endpoints).toEqual([]);
    const coarser = await modelSeries(opened.db, MODEL, "uptime30m", "7d", { now: NOW, bucket: "6h" });
    expect(coarser?.bucketSeconds).toBe(21600);
    expect(await modelSeries(opened.db, "nobody/nothing", "uptime30m", "24h")).toBeNull();

    const bad = seriesQuery.safeParse({ metric: "cpu", range: "1y" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path[0])).toEqual(["metric", "range"]);
    expect(seriesQuery.parse({ metric: "uptime30m" })).toEqual({ metric: "uptime30m", range: "24h" });
  });

  it("rolls raw rows past retention into hourly rows once, and the charts read across the seam unchanged", async () => {
    // 40 days of 5-minute polls for two endpoints, with a two-day outage of polling.
    const start = new Date(NOW.getTime() - 40 * DAY);
    const gapFrom = new Date(NOW.getTime() - 20 * DAY);
    const gapTo = new Date(NOW.getTime() - 18 * DAY);
    const priceChange = new Date(NOW.getTime() - 35 * DAY);
    for (const e of [a, b]) {
      await opened.db.$executeRaw`
        INSERT INTO "EndpointSample" ("endpointId", "observedAt", "versionId", status, uptime30m, "latencyP50", "throughputP50", "inputPricePerM", "outputPricePerM")
        SELECT ${e.id}::int, ts, ${e.versionId}::int, 0,
               (90 + (extract(epoch FROM ts)::bigint / 300) % 11)::real, 800, 40,
               CASE WHEN ts < ${priceChange}::timestamptz THEN 0.45 ELSE 0.5 END, 2.25
          FROM generate_series(${start}::timestamptz, ${new Date(NOW.getTime() - 4 * MIN)}::timestamptz, interval '5 minutes') ts
         WHERE NOT (ts >= ${gapFrom}::timestamptz AND ts < ${gapTo}::timestamptz)`;
    }
    const rawBefore = await opened.db.endpointSample.count();
    const ranges = ["7d", "30d", "90d"] as const;
    const metrics = ["uptime30m", "inputPrice", "latencyP50"] as const;
    const before = new Map<string, Series | null>();
    for (const r of ranges) for (const m of metrics) before.set(`${m}:${r}`, await modelSeries(opened.db, MODEL, m, r, { now: NOW }));

    // Small batches: it takes several runs, each doing a bounded amount of work.
    const small = { retentionDays: 30, now: NOW, batchHours: 48, maxBatches: 3, deleteBatch: 2000, maxDeleteBatches: 2 };
    const first = await rollupHistory(opened.db, small);
    expect(first.complete).toBe(false);
    let runs = 1;
    for (let r = first; !r.complete; runs++) r = await rollupHistory(opened.db, small);
    expect(runs).toBeGreaterThan(2);

    const hourly = await opened.db.endpointHourly.findMany({ orderBy: [{ endpointId: "asc" }, { hour: "asc" }] });
    // Every complete hour with polls, per endpoint: 40 days minus the 2-day gap (the last poll,
    // at 11:58, closes the 11:00 hour; it counts as complete from 12:02).
    expect(hourly.length).toBe(2 * 38 * 24);
    expect(new Set(hourly.map((h) => h.count))).toEqual(new Set([12]));
    const cutoff = new Date("2026-02-08T12:00:00Z");
    expect(await opened.db.endpointSample.count({ where: { observedAt: { lt: cutoff } } })).toBe(0);
    expect(await opened.db.endpointSample.count()).toBe(rawBefore - hourly.filter((h) => h.hour < cutoff).length * 12);

    // Idempotent: running again changes nothing.
    expect(await rollupHistory(opened.db, { retentionDays: 30, now: NOW })).toEqual({ hoursInserted: 0, hoursUpdated: 0, rawDeleted: 0, complete: true });
    expect(await opened.db.endpointHourly.findMany({ orderBy: [{ endpointId: "asc" }, { hour: "asc" }] })).toEqual(hourly);

    for (const [key, was] of before) {
      const now = await modelSeries(opened.db, MODEL, key.split(":")[0] as (typeof metrics)[number], key.split(":")[1] as (typeof ranges)[number], { now: NOW });
      expect(now?.endpoints.map((e) => e.tag)).toEqual(was?.endpoints.map((e) => e.tag));
      for (const [i, e] of (was?.endpoints ?? []).entries()) {
        const after = now!.endpoints[i].points;
        expect(after.map((p) => p.polls), key).toEqual(e.points.map((p) => p.polls));
        for (const [j, p] of e.points.entries()) {
          if (typeof p.value === "number") expect(after[j].value as number, key).toBeCloseTo(p.value, 3);
          else expect(after[j].value, key).toEqual(p.value);
        }
      }
    }
    const daily = nonEmpty(before.get("uptime30m:90d") ?? null, "alpha");
    expect(daily.length).toBeGreaterThan(35);
    // The two days without polls are gaps in the daily chart, not zeros.
    const ninety = before.get("uptime30m:90d")!.endpoints[0].points;
    expect(ninety.filter((p) => p.polls === 0 && p.t > start.toISOString()).length).toBeGreaterThanOrEqual(1);
    expect(nonEmpty(before.get("inputPrice:90d") ?? null, "alpha").some((p) => p.min === "0.45" && p.max === "0.50")).toBe(true);
  });
});
