import "server-only";
import Decimal from "decimal.js";
import type { Db, DbOrTx } from "../db/engines";
import { centsUsd, exactUsd } from "../money";
import type { BudgetSetting } from "./budget";
import { DEFAULT_BUDGET_USD } from "./budget";

// The questions the spend page asks, each answered by SQL aggregates over SpendSnapshot.
// OpenRouter's /key `usage` is the key's lifetime spend, so "spent since the budget started" is
// the latest usage minus the usage at the start (the last snapshot at or before it, or the first
// one after it when tracking began later).

export const BURN_WINDOW_HOURS = 6;
/**
 * No rate until the snapshots in the window span this long (and there are at least two): a rate
 * taken over two polls a minute apart says more about when /key refreshed than about the spend.
 */
export const MIN_BURN_SPAN_MINUTES = 30;

export interface SpendOverview {
  budget: { amountUsd: string; startAt: string; saved: boolean };
  snapshots: number;
  latest: { at: string; usage: string; limit: string | null; limitRemaining: string | null; totalCredits: string | null; totalUsage: string | null } | null;
  /** The snapshot spend is counted from; `exact` is false when the first snapshot came after the start. */
  baseline: { at: string; usage: string; exact: boolean } | null;
  /** Rounded to cents, for the page. */
  spent: string | null;
  remaining: string | null;
  /** The same, exact (every digit OpenRouter gave): what a pipeline's guard compares. */
  spentExact: string | null;
  remainingExact: string | null;
  /**
   * The burn rate over the snapshots of the last `windowHours` (at most), measured between the
   * first and last of them: `from`–`to`, `spanMinutes` long. Null until they span
   * MIN_BURN_SPAN_MINUTES; `burnPending` then says how much there is.
   */
  burn: { usdPerHour: string; windowHours: number; from: string; to: string; spanMinutes: number } | null;
  burnPending: { snapshots: number; spanMinutes: number; minimumMinutes: number } | null;
  /** When the remaining budget runs out at the burn rate; "now" when it already has. */
  runOut: { at: string; hoursLeft: string } | { at: "exhausted" } | null;
}

interface LatestRow {
  at: Date;
  usage: string;
  lim: string | null;
  lim_rem: string | null;
  credits: string | null;
  credits_usage: string | null;
}

export async function spendOverview(db: DbOrTx, setting: BudgetSetting | null, now = new Date(), windowHours = BURN_WINDOW_HOURS): Promise<SpendOverview> {
  const [counts] = await db.$queryRaw<Array<{ n: number; first_at: Date | null }>>`
    SELECT count(*)::int AS n, min("observedAt") AS first_at FROM "SpendSnapshot" WHERE "observedAt" <= ${now}`;
  const startAt = setting?.startAt ?? counts.first_at ?? now;
  const amount = new Decimal(setting?.amountUsd ?? DEFAULT_BUDGET_USD);
  const budget = { amountUsd: amount.toFixed(2), startAt: startAt.toISOString(), saved: Boolean(setting) };
  const empty: SpendOverview = { budget, snapshots: counts.n, latest: null, baseline: null, spent: null, remaining: null, spentExact: null, remainingExact: null, burn: null, burnPending: null, runOut: null };
  if (counts.n === 0) return empty;

  const [[latestRow], [baselineRow]] = await Promise.all([
    db.$queryRaw<LatestRow[]>`
      SELECT "observedAt" AS at, usage::text AS usage, "limit"::text AS lim, "limitRemaining"::text AS lim_rem,
             "totalCredits"::text AS credits, "totalUsage"::text AS credits_usage
        FROM "SpendSnapshot" WHERE "observedAt" <= ${now}
       ORDER BY "observedAt" DESC, id DESC LIMIT 1`,
    db.$queryRaw<Array<{ at: Date; usage: string; exact: boolean }>>`
      SELECT "observedAt" AS at, usage::text AS usage, ("observedAt" <= ${startAt}) AS exact
        FROM "SpendSnapshot" WHERE "observedAt" <= ${now}
       ORDER BY ("observedAt" <= ${startAt}) DESC,
                CASE WHEN "observedAt" <= ${startAt} THEN "observedAt" END DESC,
                "observedAt" ASC, id ASC
       LIMIT 1`,
  ]);
  // The burn rate looks at the last hours, but never before the spend being counted began.
  const windowStart = new Date(Math.max(now.getTime() - windowHours * 3_600_000, baselineRow.at.getTime()));
  const [burnRow] = await db.$queryRaw<Array<{ n: number; first_at: Date | null; first_usage: string | null; last_at: Date | null; last_usage: string | null }>>`
      SELECT count(*)::int AS n,
             min("observedAt") AS first_at, (array_agg(usage ORDER BY "observedAt" ASC, id ASC))[1]::text AS first_usage,
             max("observedAt") AS last_at, (array_agg(usage ORDER BY "observedAt" DESC, id DESC))[1]::text AS last_usage
        FROM "SpendSnapshot"
       WHERE "observedAt" >= ${windowStart} AND "observedAt" <= ${now}`;

  const latest = {
    at: latestRow.at.toISOString(),
    usage: norm(latestRow.usage),
    limit: norm(latestRow.lim),
    limitRemaining: norm(latestRow.lim_rem),
    totalCredits: norm(latestRow.credits),
    totalUsage: norm(latestRow.credits_usage),
  };
  const baseline = { at: baselineRow.at.toISOString(), usage: norm(baselineRow.usage), exact: baselineRow.exact };
  const spentDec = Decimal.max(0, new Decimal(latest.usage).minus(baseline.usage));
  const remainingDec = amount.minus(spentDec);

  let burn: SpendOverview["burn"] = null;
  let burnRate: Decimal | null = null;
  const spanMs = burnRow.first_at && burnRow.last_at ? burnRow.last_at.getTime() - burnRow.first_at.getTime() : 0;
  const spanMinutes = Math.floor(spanMs / 60_000);
  const enough = burnRow.n >= 2 && spanMs >= MIN_BURN_SPAN_MINUTES * 60_000;
  if (enough && burnRow.first_at && burnRow.last_at && burnRow.first_usage && burnRow.last_usage) {
    const hours = new Decimal(spanMs).div(3_600_000);
    burnRate = Decimal.max(0, new Decimal(burnRow.last_usage).minus(burnRow.first_usage)).div(hours);
    burn = { usdPerHour: burnRate.toFixed(4), windowHours, from: burnRow.first_at.toISOString(), to: burnRow.last_at.toISOString(), spanMinutes };
  }
  const burnPending = burn ? null : { snapshots: burnRow.n, spanMinutes, minimumMinutes: MIN_BURN_SPAN_MINUTES };
  return {
    ...empty,
    latest,
    baseline,
    spent: centsUsd(spentDec),
    remaining: centsUsd(remainingDec),
    spentExact: exactUsd(spentDec),
    remainingExact: exactUsd(remainingDec),
    burn,
    burnPending,
    runOut: projectRunOut(remainingDec, burnRate, latestRow.at),
  };
}

/** A numeric column's text without trailing zeros: "12.50000000" → "12.5". */
function norm<T extends string | null>(value: T): T {
  return (value === null ? null : new Decimal(value).toString()) as T;
}

/** When `remaining` dollars run out at `usdPerHour`, counted from `from`. Null when nothing is burning. */
export function projectRunOut(remaining: Decimal, usdPerHour: Decimal | null, from: Date): SpendOverview["runOut"] {
  if (remaining.lte(0)) return { at: "exhausted" };
  if (!usdPerHour || usdPerHour.lte(0)) return null;
  const hoursLeft = remaining.div(usdPerHour);
  const ms = hoursLeft.times(3_600_000);
  // Beyond a century the date is meaningless (and past what Date can hold).
  if (ms.gt(100 * 365 * 24 * 3_600_000)) return null;
  return { at: new Date(from.getTime() + ms.round().toNumber()).toISOString(), hoursLeft: hoursLeft.toFixed(2) };
}

export interface SpendPoint {
  at: string;
  /** USD spent since the baseline, as a decimal string. */
  spent: string;
}

/** Bucket widths the series may use; the server picks one from the range, never the client. */
const BUCKETS = [
  { width: "1 minute", ms: 60_000 },
  { width: "15 minutes", ms: 900_000 },
  { width: "1 hour", ms: 3_600_000 },
  { width: "6 hours", ms: 21_600_000 },
  { width: "1 day", ms: 86_400_000 },
] as const;
export const MAX_RAW_POINTS = 1_000;
const TARGET_BUCKETS = 500;

export function pickBucket(rangeMs: number): (typeof BUCKETS)[number] {
  return BUCKETS.find((b) => rangeMs / b.ms <= TARGET_BUCKETS) ?? BUCKETS[BUCKETS.length - 1];
}

/**
 * Spend since `baselineUsage` over time, from `from` to `to`: every snapshot while there are at
 * most MAX_RAW_POINTS, else the highest usage per time bucket (usage only grows).
 */
export async function spendSeries(db: Db, from: Date, to: Date, baselineUsage: string): Promise<SpendPoint[]> {
  const [{ n }] = await db.$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM "SpendSnapshot" WHERE "observedAt" >= ${from} AND "observedAt" <= ${to}`;
  const base = new Decimal(baselineUsage);
  let rows: Array<{ at: Date; usage: string }>;
  if (n <= MAX_RAW_POINTS) {
    rows = await db.$queryRaw`
      SELECT "observedAt" AS at, usage::text AS usage FROM "SpendSnapshot"
       WHERE "observedAt" >= ${from} AND "observedAt" <= ${to} ORDER BY "observedAt", id`;
  } else {
    const { width } = pickBucket(to.getTime() - from.getTime()); // from the whitelist above
    rows = await db.$queryRaw`
      SELECT date_bin(${width}::interval, "observedAt", ${from}) AS at, max(usage)::text AS usage
        FROM "SpendSnapshot" WHERE "observedAt" >= ${from} AND "observedAt" <= ${to}
       GROUP BY 1 ORDER BY 1`;
  }
  return rows.map((r) => ({ at: r.at.toISOString(), spent: Decimal.max(0, new Decimal(r.usage).minus(base)).toFixed(6) }));
}

/** Whether any spend figure since `since` came from the local replica, so the page labels it. */
export async function spendIsDemo(db: Db, since: Date | null): Promise<boolean> {
  const row = await db.spendSnapshot.findFirst({
    where: { demo: true, ...(since ? { observedAt: { gte: since } } : {}) },
    select: { id: true },
  });
  return row !== null;
}
