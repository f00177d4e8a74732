import { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { migrate, readMigrations, type SqlConnection } from "@/lib/db/migrate";
import { modelSeries } from "@/lib/history/series";
import { toWire } from "@/lib/history/series-wire";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { latestProviders } from "@/lib/queries/providers";
import { seedWatchedModels } from "@/lib/watched-models";
import { resetReplica, startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

// Uptimes answer the value that was polled: BaseTen's recorded 29.8 (the replica's first poll)
// reads back as 29.8 from the providers API and the series API alike, never 29.799999237060547.

const KIMI = "moonshotai/kimi-k2.5";
const EXACT_MIGRATION = "20261201194500_exact_uptimes_last_price";

describe.each(engines)("polled values answered exactly on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  const client = () => createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 2000, baseDelayMs: 5, maxAttempts: 2 });

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, [KIMI]);
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });
  afterEach(async () => resetReplica(replica.url));

  it("the providers and series answers carry the polled 29.8, also for a bucket of several polls", async () => {
    await runPollCycle(opened.db, client(), { trigger: "test" });
    const providers = await latestProviders(opened.db, KIMI);
    expect(providers?.endpoints.find((e) => e.tag === "baseten/fp4")?.uptime30m).toBe(29.8);

    const wire = toWire((await modelSeries(opened.db, KIMI, "uptime30m", "24h"))!);
    const baseten = wire.endpoints.find((e) => e.tag === "baseten/fp4");
    expect(baseten?.points.at(-1)?.[1]).toBe(29.8);
    // What the route sends is this object as JSON: no float noise in it anywhere.
    expect(JSON.stringify(wire)).toContain(",29.8,29.8,29.8,");
    expect(JSON.stringify(wire)).not.toMatch(/\d\.\d*(9999|0000)\d/);

    // Three polls of the same 29.8 in one hour: the hour's point is 29.8 (an average of float8s
    // would give 29.799999999999997).
    const endpoint = await opened.db.endpoint.findFirstOrThrow({ where: { modelId: KIMI, tag: "baseten/fp4" } });
    const sample = await opened.db.endpointSample.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    const hour = new Date(Date.now() - 3 * 3_600_000);
    hour.setUTCMinutes(0, 0, 0);
    for (const minute of [5, 10, 15]) {
      await opened.db.endpointSample.create({
        data: { endpointId: endpoint.id, versionId: sample.versionId, observedAt: new Date(hour.getTime() + minute * 60_000), uptime30m: 29.8 },
      });
    }
    const week = toWire((await modelSeries(opened.db, KIMI, "uptime30m", "7d"))!);
    const hourIndex = Math.round((hour.getTime() - Date.parse(week.from)) / 3_600_000);
    expect(week.endpoints.find((e) => e.tag === "baseten/fp4")?.points.find((p) => p[0] === hourIndex)).toEqual([hourIndex, 29.8, 29.8, 29.8, 3]);
  });
});

const conn = (db: PGlite): SqlConnection => ({
  exec: async (sql) => void (await db.exec(sql)),
  query: async <T>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows,
});

describe("the migration to double precision", () => {
  it("converts stored REAL uptimes to the values that were polled, and keeps each rolled hour's last price", async () => {
    const db = await PGlite.create();
    const all = await readMigrations();
    const index = all.findIndex((m) => m.name === EXACT_MIGRATION);
    expect(index).toBeGreaterThan(0);
    await migrate(conn(db), all.slice(0, index));
    await db.exec(`
      INSERT INTO "WatchedModel" (id) VALUES ('a/b');
      INSERT INTO "Endpoint" (id, "modelId", tag, "providerName", "firstSeenAt", "lastSeenAt") VALUES (1, 'a/b', 'x', 'X', now(), now());
      INSERT INTO "EndpointVersion" (id, "endpointId", sha256, name, "modelPermaslug", "providerName", "supportedParameters", pricing, extra, "firstSeenAt")
        VALUES (1, 1, 's', 'x', 'a/b', 'X', '{}', '{}', '{}', now());
      INSERT INTO "EndpointSample" ("endpointId", "observedAt", "versionId", uptime5m, uptime30m, uptime1d, "latencyP50", "throughputP50", "inputPricePerM")
        VALUES (1, '2026-11-01T10:05:00Z', 1, 99.87342, 29.8, 97.6, 1210, 36.5, 0.75),
               (1, '2026-11-01T10:50:00Z', 1, 100, 0.1, NULL, NULL, NULL, 0.72);
      -- 10:00 still has its raw rows; 08:00 and 09:00 were rolled up and their raw rows deleted.
      INSERT INTO "EndpointHourly" ("endpointId", hour, count, "uptime30mMin", "uptime30mMean", "uptime30mMax", "inputPriceMin", "inputPriceMax", "outputPriceMin", "outputPriceMax")
        VALUES (1, '2026-11-01T10:00:00Z', 2, 0.1, 14.95, 29.8, 0.72, 0.75, NULL, NULL),
               (1, '2026-11-01T09:00:00Z', 12, 29.8, 29.8, 29.8, 0.60, 0.60, 3.00, 3.00),
               (1, '2026-11-01T08:00:00Z', 12, 29.8, 29.8, 29.8, 0.60, 0.65, 3.00, 3.00);
    `);
    // Before: a REAL widened to double is not the polled value.
    const before = await db.query<{ v: number }>(`SELECT uptime30m::float8 AS v FROM "EndpointSample" ORDER BY "observedAt" LIMIT 1`);
    expect(before.rows[0].v).not.toBe(29.8);

    expect((await migrate(conn(db), all)).applied).toEqual(all.slice(index).map((m) => m.name));
    const samples = await db.query<Record<string, number | null>>(
      `SELECT uptime5m, uptime30m, uptime1d, "latencyP50", "throughputP50" FROM "EndpointSample" ORDER BY "observedAt"`,
    );
    expect(samples.rows).toEqual([
      { uptime5m: 99.87342, uptime30m: 29.8, uptime1d: 97.6, latencyP50: 1210, throughputP50: 36.5 },
      { uptime5m: 100, uptime30m: 0.1, uptime1d: null, latencyP50: null, throughputP50: null },
    ]);
    const types = await db.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'EndpointSample' AND column_name LIKE 'uptime%'`,
    );
    expect(new Set(types.rows.map((r) => r.data_type))).toEqual(new Set(["double precision"]));
    const hourly = await db.query<{ hour: Date; mean: number; last_in: string | null; last_out: string | null }>(
      `SELECT hour, "uptime30mMean" AS mean, "inputPriceLast"::text AS last_in, "outputPriceLast"::text AS last_out FROM "EndpointHourly" ORDER BY hour`,
    );
    expect(hourly.rows.map(({ mean, last_in, last_out }) => ({ mean, last_in, last_out }))).toEqual([
      { mean: 29.8, last_in: null, last_out: "3.000000" }, // the price moved and its raw rows are gone: unknown
      { mean: 29.8, last_in: "0.600000", last_out: "3.000000" }, // it did not move: that price
      { mean: 14.95, last_in: "0.720000", last_out: null }, // from the raw rows still kept
    ]);
    await db.close();
  });
});
