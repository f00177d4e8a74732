import "server-only";
import Decimal from "decimal.js";
import type { Db } from "../db/engines";

// What the spend page shows from OpenRouter's activity, aggregated in SQL: actual spend per day and
// provider (for the stacked chart), and per provider against the listed prices.

const MILLION = new Decimal(1_000_000);
export const ACTIVITY_DAYS = 30;

export interface ProviderDaySpend {
  /** YYYY-MM-DD (UTC). */
  date: string;
  provider: string;
  usageUsd: string;
  /** Read before the day ended: its figures may still grow. */
  incomplete: boolean;
  demo: boolean;
}

function since(now: Date, days: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - days * 86_400_000);
}

export async function activityByDayAndProvider(db: Db, now = new Date(), days = ACTIVITY_DAYS): Promise<ProviderDaySpend[]> {
  const rows = await db.$queryRaw<Array<{ date: Date; provider: string; usage: string; incomplete: boolean; demo: boolean }>>`
    SELECT date, "providerName" AS provider, sum("usageUsd")::text AS usage,
           bool_or("fetchedAt" < date + interval '1 day') AS incomplete, bool_or(demo) AS demo
      FROM "ActivityDay" WHERE date >= ${since(now, days)}::date
     GROUP BY date, "providerName" ORDER BY date, "providerName"`;
  return rows.map((r) => ({ date: r.date.toISOString().slice(0, 10), provider: r.provider, usageUsd: new Decimal(r.usage).toFixed(6), incomplete: r.incomplete, demo: r.demo }));
}

export interface ChartDay {
  date: string;
  incomplete: boolean;
  /** USD per provider, as numbers for the chart only (the table shows the exact decimals). */
  byProvider: Record<string, number>;
  totalUsd: string;
}

/** Pivots day × provider rows into one entry per day, every day in range present (empty days at zero). */
export function chartDays(rows: ProviderDaySpend[], now = new Date(), days = ACTIVITY_DAYS): { days: ChartDay[]; providers: string[] } {
  const providerTotals = new Map<string, Decimal>();
  for (const r of rows) providerTotals.set(r.provider, (providerTotals.get(r.provider) ?? new Decimal(0)).plus(r.usageUsd));
  const providers = [...providerTotals.entries()].sort((a, b) => b[1].comparedTo(a[1]) || a[0].localeCompare(b[0])).map(([p]) => p);
  const start = since(now, days).getTime();
  const out: ChartDay[] = [];
  for (let t = start; t <= since(now, 0).getTime(); t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    const dayRows = rows.filter((r) => r.date === date);
    if (dayRows.length === 0 && out.length === 0) continue; // the range starts at the first day with data
    const total = dayRows.reduce((sum, r) => sum.plus(r.usageUsd), new Decimal(0));
    out.push({
      date,
      incomplete: dayRows.some((r) => r.incomplete),
      byProvider: Object.fromEntries(dayRows.map((r) => [r.provider, new Decimal(r.usageUsd).toNumber()])),
      totalUsd: total.toFixed(2),
    });
  }
  while (out.length > 0 && Object.keys(out[out.length - 1].byProvider).length === 0) out.pop(); // no empty bar for a today with no data yet
  return { days: out, providers };
}

export interface ProviderActualPrice {
  provider: string;
  requests: number;
  promptTokens: string;
  completionTokens: string;
  reasoningTokens: string;
  actualUsd: string;
  listedInputPerM: string | null;
  listedOutputPerM: string | null;
  /** What the same tokens cost at the listed prices. */
  listedUsd: string | null;
  /** actual ÷ listed, e.g. "0.9700". */
  ratio: string | null;
  /** The listed prices scaled by actual ÷ listed: activity gives one charge, not split into input and output. */
  actualInputPerM: string | null;
  actualOutputPerM: string | null;
}

export async function activityByProvider(db: Db, now = new Date(), days = ACTIVITY_DAYS): Promise<ProviderActualPrice[]> {
  const rows = await db.$queryRaw<Array<{ provider: string; requests: number; prompt: string; completion: string; reasoning: string; usage: string; list_in: string | null; list_out: string | null }>>`
    WITH a AS (
      SELECT "providerName" AS provider, min(model) AS model, sum(requests)::int AS requests,
             sum("promptTokens") AS prompt, sum("completionTokens") AS completion,
             sum("reasoningTokens") AS reasoning, sum("usageUsd") AS usage
        FROM "ActivityDay" WHERE date >= ${since(now, days)}::date
       GROUP BY "providerName"
    )
    SELECT a.provider, a.requests, a.prompt::text AS prompt, a.completion::text AS completion,
           a.reasoning::text AS reasoning, a.usage::text AS usage,
           p.list_in::text AS list_in, p.list_out::text AS list_out
      FROM a
      LEFT JOIN LATERAL (
        SELECT s."inputPricePerM" AS list_in, s."outputPricePerM" AS list_out
          FROM "Endpoint" e JOIN "EndpointSample" s ON s."endpointId" = e.id
         WHERE lower(e."providerName") = lower(a.provider) AND e."modelId" = a.model
         ORDER BY s."observedAt" DESC
         LIMIT 1
      ) p ON true
     ORDER BY a.usage DESC, a.provider`;
  return rows.map((r) => {
    const actual = new Decimal(r.usage);
    const listed = r.list_in !== null && r.list_out !== null ? new Decimal(r.prompt).times(r.list_in).plus(new Decimal(r.completion).times(r.list_out)).div(MILLION) : null;
    const ratio = listed && listed.gt(0) ? actual.div(listed) : null;
    return {
      provider: r.provider,
      requests: r.requests,
      promptTokens: r.prompt,
      completionTokens: r.completion,
      reasoningTokens: r.reasoning,
      actualUsd: actual.toFixed(2),
      listedInputPerM: r.list_in === null ? null : new Decimal(r.list_in).toFixed(2),
      listedOutputPerM: r.list_out === null ? null : new Decimal(r.list_out).toFixed(2),
      listedUsd: listed ? listed.toFixed(2) : null,
      ratio: ratio ? ratio.toFixed(4) : null,
      actualInputPerM: ratio && r.list_in !== null ? ratio.times(r.list_in).toFixed(2) : null,
      actualOutputPerM: ratio && r.list_out !== null ? ratio.times(r.list_out).toFixed(2) : null,
    };
  });
}

export interface ActivityStatus {
  lastOk: { at: string; days: number; rows: number } | null;
  lastFailure: { at: string; error: string } | null;
}

/** The last successful read of /activity, and the last failure when it came after it. */
export async function activityStatus(db: Db): Promise<ActivityStatus> {
  const [ok, failed] = await Promise.all([
    db.activityFetch.findFirst({ where: { ok: true }, orderBy: { startedAt: "desc" } }),
    db.activityFetch.findFirst({ where: { ok: false }, orderBy: { startedAt: "desc" } }),
  ]);
  return {
    lastOk: ok ? { at: ok.startedAt.toISOString(), days: ok.days ?? 0, rows: ok.rows ?? 0 } : null,
    lastFailure: failed && (!ok || failed.startedAt > ok.startedAt) ? { at: failed.startedAt.toISOString(), error: failed.error ?? "unknown error" } : null,
  };
}
