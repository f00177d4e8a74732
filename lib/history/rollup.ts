import "server-only";
import type { Db } from "../db/engines";
import { BUCKET_ORIGIN } from "./buckets";

// Retention: complete hours of raw EndpointSample rows are rolled up into EndpointHourly (count,
// min, mean, max, and the last price), and raw rows older than RETENTION_DAYS are deleted once their hour is rolled.
// Only complete hours are rolled, each once: per endpoint, the newest rolled hour is the
// watermark and a run starts at the first raw row after it, so running it twice changes nothing
// (and a rolled hour is written with "insert or replace" from all of its raw rows, never added
// to, should two instances race). Raw rows are deleted only in rolled hours. An
// hour counts as complete a couple of minutes after it ends, so a slow transaction's row still
// lands in an hour that is not rolled yet. Work is bounded per run
// (a few batches of hours per endpoint, a few batches of deleted rows), so a backlog is worked
// off across cycles instead of in one long statement.

export interface RollupOptions {
  retentionDays: number;
  now?: Date;
  /** Hours rolled per endpoint per batch. */
  batchHours?: number;
  maxBatches?: number;
  /** Raw rows deleted per statement. */
  deleteBatch?: number;
  maxDeleteBatches?: number;
}

export interface RollupResult {
  hoursInserted: number;
  hoursUpdated: number;
  rawDeleted: number;
  /** False when the per-run limits stopped it before everything due was done. */
  complete: boolean;
}

// A row committed this long after its observedAt still lands in an hour that is not yet rolled.
const SETTLE_MS = 2 * 60_000;
const HOUR_MS = 3_600_000;

const floorHour = (t: number) =>
  BUCKET_ORIGIN.getTime() + Math.floor((t - BUCKET_ORIGIN.getTime()) / HOUR_MS) * HOUR_MS;

export async function rollupHistory(db: Db, options: RollupOptions): Promise<RollupResult> {
  const now = options.now ?? new Date();
  const batchHours = options.batchHours ?? 24;
  const maxBatches = options.maxBatches ?? 4;
  const deleteBatch = options.deleteBatch ?? 5_000;
  const maxDeleteBatches = options.maxDeleteBatches ?? 10;
  // Hours that ended (and settled) before this instant are complete.
  const completeBefore = new Date(floorHour(now.getTime() - SETTLE_MS));
  const cutoff = new Date(floorHour(now.getTime() - options.retentionDays * 24 * HOUR_MS));

  const result: RollupResult = { hoursInserted: 0, hoursUpdated: 0, rawDeleted: 0, complete: true };
  let batches = 0;
  for (;;) {
    const rows = await db.$queryRaw<Array<{ inserted: boolean; n: number }>>`
      WITH starts AS (
        SELECT e.id, date_bin(interval '1 hour', first."observedAt", ${BUCKET_ORIGIN}::timestamptz) AS start_hour
          FROM "Endpoint" e
          LEFT JOIN LATERAL (SELECT max(h.hour) AS rolled FROM "EndpointHourly" h WHERE h."endpointId" = e.id) w ON true
          JOIN LATERAL (
            SELECT s."observedAt" FROM "EndpointSample" s
             WHERE s."endpointId" = e.id AND s."observedAt" >= coalesce(w.rolled + interval '1 hour', '-infinity'::timestamptz)
             ORDER BY s."observedAt" LIMIT 1) first ON true
      ), upserted AS (
        INSERT INTO "EndpointHourly" AS h ("endpointId", hour, count, "uptime30mMin", "uptime30mMean", "uptime30mMax",
               "latencyP50Mean", "throughputP50Mean", "inputPriceMin", "inputPriceMax", "inputPriceLast",
               "outputPriceMin", "outputPriceMax", "outputPriceLast")
        SELECT s."endpointId", date_bin(interval '1 hour', s."observedAt", ${BUCKET_ORIGIN}::timestamptz), count(*)::int,
               min(s.uptime30m), avg(s.uptime30m), max(s.uptime30m), avg(s."latencyP50"), avg(s."throughputP50"),
               min(s."inputPricePerM"), max(s."inputPricePerM"),
               -- The hour's last listed price: the price in effect at its end, which the charts plot.
               (array_agg(s."inputPricePerM" ORDER BY s."observedAt" DESC) FILTER (WHERE s."inputPricePerM" IS NOT NULL))[1],
               min(s."outputPricePerM"), max(s."outputPricePerM"),
               (array_agg(s."outputPricePerM" ORDER BY s."observedAt" DESC) FILTER (WHERE s."outputPricePerM" IS NOT NULL))[1]
          FROM starts b
          -- Per endpoint, a primary-key range scan (OFFSET 0 keeps it from being flattened into a join).
          CROSS JOIN LATERAL (
            SELECT * FROM "EndpointSample" x
             WHERE x."endpointId" = b.id AND x."observedAt" >= b.start_hour
               AND x."observedAt" < least(b.start_hour + ${batchHours}::int * interval '1 hour', ${completeBefore}::timestamptz)
            OFFSET 0) s
         GROUP BY 1, 2
        ON CONFLICT ("endpointId", hour) DO UPDATE SET
               count = EXCLUDED.count, "uptime30mMin" = EXCLUDED."uptime30mMin", "uptime30mMean" = EXCLUDED."uptime30mMean",
               "uptime30mMax" = EXCLUDED."uptime30mMax", "latencyP50Mean" = EXCLUDED."latencyP50Mean",
               "throughputP50Mean" = EXCLUDED."throughputP50Mean", "inputPriceMin" = EXCLUDED."inputPriceMin",
               "inputPriceMax" = EXCLUDED."inputPriceMax", "inputPriceLast" = EXCLUDED."inputPriceLast",
               "outputPriceMin" = EXCLUDED."outputPriceMin", "outputPriceMax" = EXCLUDED."outputPriceMax",
               "outputPriceLast" = EXCLUDED."outputPriceLast"
        -- A row rewritten with the same figures is not rewritten at all.
         WHERE (h.count, h."uptime30mMean", h."inputPriceMax", h."outputPriceMax", h."inputPriceLast", h."outputPriceLast",
                h."latencyP50Mean", h."throughputP50Mean")
               IS DISTINCT FROM (EXCLUDED.count, EXCLUDED."uptime30mMean", EXCLUDED."inputPriceMax", EXCLUDED."outputPriceMax",
                                 EXCLUDED."inputPriceLast", EXCLUDED."outputPriceLast",
                                 EXCLUDED."latencyP50Mean", EXCLUDED."throughputP50Mean")
        RETURNING (xmax = 0) AS inserted
      )
      SELECT inserted, count(*)::int AS n FROM upserted GROUP BY inserted`;
    const inserted = rows.find((r) => r.inserted)?.n ?? 0;
    result.hoursInserted += inserted;
    result.hoursUpdated += rows.find((r) => !r.inserted)?.n ?? 0;
    batches += 1;
    if (inserted === 0) break;
    if (batches >= maxBatches) {
      result.complete = false;
      break;
    }
  }

  for (let i = 0; ; i++) {
    if (i >= maxDeleteBatches) {
      result.complete = false;
      break;
    }
    const deleted = await db.$executeRaw`
      DELETE FROM "EndpointSample" WHERE ctid IN (
        SELECT s.ctid
          FROM "Endpoint" e
          JOIN LATERAL (SELECT max(h.hour) AS rolled FROM "EndpointHourly" h WHERE h."endpointId" = e.id) w ON w.rolled IS NOT NULL
          CROSS JOIN LATERAL (
            SELECT x.ctid FROM "EndpointSample" x
             WHERE x."endpointId" = e.id AND x."observedAt" < least(w.rolled + interval '1 hour', ${cutoff}::timestamptz)
             LIMIT ${deleteBatch}::int) s
         LIMIT ${deleteBatch}::int)`;
    result.rawDeleted += deleted;
    if (deleted < deleteBatch) break;
  }
  return result;
}
