import "server-only";
import Decimal from "decimal.js";
import type { Db } from "../db/engines";
import { env } from "../env";
import { ACTIVITY_DAYS } from "./queries";

// Three views of the same money per UTC day: the pipeline's own records (imported JSONL, by each
// record's time), OpenRouter's activity, and the pipeline key's usage for the day (usage_daily at
// the day's last hourly reading). A day is flagged when two views that are both present differ by
// more than 1% (of the larger) OR by more than $0.01: either is a discrepancy worth chasing (a $0.02
// gap on a $6.38 day is one). Both thresholds are configurable (RECONCILE_TOLERANCE_PERCENT and
// RECONCILE_TOLERANCE_USD); a gap exactly at a threshold is not over it. A day with one view only is
// listed too, labelled with the view it has: there is nothing to compare it with.

export interface Tolerance {
  /** A fraction of the larger amount: 0.01 for 1%. */
  ratio: Decimal;
  usd: Decimal;
}

/** The thresholds this server is configured with (1% and $0.01 unless set otherwise). */
export function configuredTolerance(): Tolerance {
  return { ratio: new Decimal(env.RECONCILE_TOLERANCE_PERCENT).div(100), usd: new Decimal(env.RECONCILE_TOLERANCE_USD) };
}

export type ReconcileView = "imported" | "activity" | "key";

export interface ReconciledDay {
  date: string;
  importedUsd: string | null;
  importedRecords: number;
  activityUsd: string | null;
  keyUsd: string | null;
  /** The activity was read before the day ended, or the key's last reading was before 23:00 UTC. */
  incomplete: boolean;
  flagged: boolean;
  /** The largest difference between two present views; null when only one is present. */
  largestGapUsd: string | null;
  /** The only view present on a day with one view, else null. */
  onlyView: ReconcileView | null;
}

/** Whether two amounts differ by more than the percentage (of the larger) or by more than the dollars. */
export function differs(a: Decimal.Value, b: Decimal.Value, tolerance: Tolerance = configuredTolerance()): boolean {
  const x = new Decimal(a);
  const y = new Decimal(b);
  const gap = x.minus(y).abs();
  return gap.gt(tolerance.usd) || gap.gt(Decimal.max(x.abs(), y.abs()).times(tolerance.ratio));
}

/** The flag and the largest gap among the views that are present. */
export function compareViews(values: Array<string | null>, tolerance: Tolerance = configuredTolerance()): { flagged: boolean; largestGapUsd: string | null } {
  const present = values.filter((v): v is string => v !== null);
  if (present.length < 2) return { flagged: false, largestGapUsd: null };
  let flagged = false;
  let largest = new Decimal(0);
  for (let i = 0; i < present.length; i++) {
    for (let j = i + 1; j < present.length; j++) {
      if (differs(present[i], present[j], tolerance)) flagged = true;
      largest = Decimal.max(largest, new Decimal(present[i]).minus(present[j]).abs());
    }
  }
  return { flagged, largestGapUsd: largest.toFixed(2) };
}

interface Row {
  day: Date;
  imported: string | null;
  records: number | null;
  activity: string | null;
  activity_incomplete: boolean | null;
  key_usd: string | null;
  key_last: Date | null;
}

export async function reconcile(db: Db, pipelineKeyHash: string | null, now = new Date(), days = ACTIVITY_DAYS, tolerance: Tolerance = configuredTolerance()): Promise<ReconciledDay[]> {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const from = new Date(today.getTime() - days * 86_400_000);
  const rows = await db.$queryRaw<Row[]>`
    WITH days AS (
      SELECT generate_series(${from}::date, ${today}::date, interval '1 day')::date AS day
    ), imp AS (
      -- The imported records' dollars per UTC day, as the database keeps them (lib/provenance/tally.ts).
      SELECT day, sum("costUsd") AS usd, sum(samples)::int AS n
        FROM "ProvenanceTally" WHERE day >= (${from}::timestamptz AT TIME ZONE 'UTC')::date GROUP BY 1 HAVING sum(samples) <> 0
    ), act AS (
      SELECT date AS day, sum("usageUsd") AS usd, bool_or("fetchedAt" < date + interval '1 day') AS incomplete
        FROM "ActivityDay" WHERE date >= ${from}::date GROUP BY 1
    ), k AS (
      SELECT ("observedAt" AT TIME ZONE 'UTC')::date AS day, max("usageDaily") AS usd, max("observedAt") AS last_at
        FROM "KeyUsageSnapshot" WHERE "keyHash" = ${pipelineKeyHash ?? ""} AND "observedAt" >= ${from} GROUP BY 1
    )
    SELECT days.day, imp.usd::text AS imported, imp.n AS records, act.usd::text AS activity,
           act.incomplete AS activity_incomplete, k.usd::text AS key_usd, k.last_at AS key_last
      FROM days
      LEFT JOIN imp ON imp.day = days.day
      LEFT JOIN act ON act.day = days.day
      LEFT JOIN k ON k.day = days.day
     WHERE imp.usd IS NOT NULL OR act.usd IS NOT NULL OR k.usd IS NOT NULL
     ORDER BY days.day DESC`;
  return rows.map((r) => {
    const money = (v: string | null) => (v === null ? null : new Decimal(v).toFixed(2));
    const importedUsd = money(r.imported);
    const activityUsd = money(r.activity);
    const keyUsd = money(r.key_usd);
    const keyPartial = r.key_last !== null && r.key_last.getUTCHours() < 23;
    // Compared exactly; shown to the cent.
    const { flagged, largestGapUsd } = compareViews([r.imported, r.activity, r.key_usd], tolerance);
    const views: Array<[ReconcileView, string | null]> = [["imported", r.imported], ["activity", r.activity], ["key", r.key_usd]];
    const present = views.filter(([, v]) => v !== null);
    return {
      date: r.day.toISOString().slice(0, 10),
      importedUsd,
      importedRecords: r.records ?? 0,
      activityUsd,
      keyUsd,
      incomplete: Boolean(r.activity_incomplete) || keyPartial,
      flagged,
      largestGapUsd,
      onlyView: present.length === 1 ? present[0][0] : null,
    };
  });
}
