import "server-only";
import Decimal from "decimal.js";
import type { Db } from "../db/engines";
import { listedPriceLateral } from "../spend/listed-price";

// What the spend page shows from OpenRouter's activity, aggregated in SQL: actual spend per day and
// provider (for the stacked chart), and per provider against the listed prices.

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

/** One model at one provider: its tokens at that model's own listed prices. */
export interface ModelActualPrice {
  model: string;
  requests: number;
  promptTokens: string;
  completionTokens: string;
  actualUsd: string;
  /** Null when the provider lists no price for the model (not watched, or two endpoints at two prices). */
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

/** A provider's charges, each (model, endpoint) compared with its own listed price, then added up. */
export interface ProviderActualPrice {
  provider: string;
  requests: number;
  promptTokens: string;
  completionTokens: string;
  reasoningTokens: string;
  actualUsd: string;
  /** The listed cost of the models with a listed price; null when none has one. */
  listedUsd: string | null;
  /** Actual ÷ listed over the models with a listed price only, e.g. "1.0000". */
  ratio: string | null;
  /** What was charged for models with no listed price, left out of the ratio. */
  unlistedUsd: string;
  models: ModelActualPrice[];
}

interface PricedRow {
  provider: string;
  model: string | null;
  requests: number;
  prompt: string;
  completion: string;
  reasoning: string;
  usage: string;
  listed_usage: string | null;
  listed: string | null;
  unlisted_usage: string;
  list_in: string | null;
  list_out: string | null;
}

export async function activityByProvider(db: Db, now = new Date(), days = ACTIVITY_DAYS): Promise<ProviderActualPrice[]> {
  // Each (provider, model, endpoint) is priced at its own listed price, then summed per model and
  // per provider (GROUPING SETS): the ratio is taken over the charges that have a listed price.
  const rows = await db.$queryRaw<PricedRow[]>`
    WITH a AS (
      SELECT "providerName" AS provider, model, "endpointId" AS endpoint, sum(requests)::int AS requests,
             sum("promptTokens") AS prompt, sum("completionTokens") AS completion,
             sum("reasoningTokens") AS reasoning, sum("usageUsd") AS usage
        FROM "ActivityDay" WHERE date >= ${since(now, days)}::date
       GROUP BY "providerName", model, "endpointId"
    ), priced AS (
      SELECT a.*, p.list_in, p.list_out,
             CASE WHEN p.list_in IS NOT NULL AND p.list_out IS NOT NULL
                  THEN (a.prompt * p.list_in + a.completion * p.list_out) / 1000000 END AS listed
        FROM a LEFT JOIN ${listedPriceLateral("a.provider", "a.model")} p ON true
    )
    SELECT provider, CASE WHEN GROUPING(model) = 0 THEN model END AS model,
           sum(requests)::int AS requests, sum(prompt)::text AS prompt, sum(completion)::text AS completion,
           sum(reasoning)::text AS reasoning, sum(usage)::text AS usage,
           sum(usage) FILTER (WHERE listed IS NOT NULL)::text AS listed_usage,
           sum(listed)::text AS listed,
           coalesce(sum(usage) FILTER (WHERE listed IS NULL), 0)::text AS unlisted_usage,
           CASE WHEN GROUPING(model) = 0 THEN min(list_in) END::text AS list_in,
           CASE WHEN GROUPING(model) = 0 THEN min(list_out) END::text AS list_out
      FROM priced
     GROUP BY GROUPING SETS ((provider), (provider, model))`;
  const providers = rows
    .filter((r) => r.model === null)
    .sort((x, y) => new Decimal(y.usage).comparedTo(x.usage) || x.provider.localeCompare(y.provider));
  const models = rows.filter((r) => r.model !== null);
  return providers
    .map((p): ProviderActualPrice => ({
      provider: p.provider,
      requests: p.requests,
      promptTokens: p.prompt,
      completionTokens: p.completion,
      reasoningTokens: p.reasoning,
      actualUsd: new Decimal(p.usage).toFixed(2),
      listedUsd: p.listed === null ? null : new Decimal(p.listed).toFixed(2),
      ratio: ratioOf(p.listed_usage, p.listed)?.toFixed(4) ?? null,
      unlistedUsd: new Decimal(p.unlisted_usage).toFixed(2),
      models: models
        .filter((m) => m.provider === p.provider)
        .sort((x, y) => new Decimal(y.usage).comparedTo(x.usage) || (x.model as string).localeCompare(y.model as string))
        .map((m) => {
          const ratio = ratioOf(m.listed_usage, m.listed);
          return {
            model: m.model as string,
            requests: m.requests,
            promptTokens: m.prompt,
            completionTokens: m.completion,
            actualUsd: new Decimal(m.usage).toFixed(2),
            listedInputPerM: m.listed === null || m.list_in === null ? null : new Decimal(m.list_in).toFixed(2),
            listedOutputPerM: m.listed === null || m.list_out === null ? null : new Decimal(m.list_out).toFixed(2),
            listedUsd: m.listed === null ? null : new Decimal(m.listed).toFixed(2),
            ratio: ratio?.toFixed(4) ?? null,
            actualInputPerM: ratio && m.list_in !== null ? ratio.times(m.list_in).toFixed(2) : null,
            actualOutputPerM: ratio && m.list_out !== null ? ratio.times(m.list_out).toFixed(2) : null,
          };
        }),
    }));
}

function ratioOf(actual: string | null, listed: string | null): Decimal | null {
  if (actual === null || listed === null || new Decimal(listed).lte(0)) return null;
  return new Decimal(actual).div(listed);
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
