import "server-only";
import Decimal from "decimal.js";
import type { Dataset } from "../budget/cost";
import type { Db, DbOrTx } from "../db/engines";
import { listedPriceLateral } from "../spend/listed-price";

// Actual usage, aggregated in SQL: by provider and model (with the listed price OpenRouter showed
// last for that model at that provider, through the same join as the activity's, to compare what
// was charged with what the table said) and by dataset (against the plan's tokens). The sums come
// from "ProvenanceTally", which the database keeps per (dataset, class, provider, model, UTC day)
// as records are written (lib/provenance/tally.ts), not from a scan of every usage record: a few
// thousand rows however many records are imported (1.8 million records on the server: 1.1-1.2 s a
// render from the records, 15-26 ms from the tally; bench/provenance.md).

const MILLION = new Decimal(1_000_000);

export interface ProviderUsage {
  provider: string;
  modelId: string | null;
  requests: number;
  inputTokens: string;
  outputTokens: string;
  costUsd: string;
  /** USD per million tokens actually charged, input and output together. */
  actualPerM: string | null;
  /** What these tokens cost at the provider's last listed prices, when the provider is known. */
  listedCostUsd: string | null;
  listedInputPerM: string | null;
  listedOutputPerM: string | null;
}

interface ProviderRowSql {
  provider: string;
  model_id: string | null;
  requests: number;
  input_tokens: string;
  output_tokens: string;
  cost: string;
  list_in: string | null;
  list_out: string | null;
}

export async function usageByProvider(db: Db): Promise<ProviderUsage[]> {
  const rows = await db.$queryRaw<ProviderRowSql[]>`
    WITH u AS (
      SELECT provider, "modelId" AS model_id, sum(samples)::int AS requests,
             sum("inputTokens") AS input_tokens, sum("outputTokens") AS output_tokens, sum("costUsd") AS cost
        FROM "ProvenanceTally" GROUP BY provider, "modelId"
      HAVING sum(samples) <> 0
    )
    SELECT u.provider, u.model_id, u.requests, u.input_tokens::text AS input_tokens,
           u.output_tokens::text AS output_tokens, u.cost::text AS cost,
           p.list_in::text AS list_in, p.list_out::text AS list_out
      FROM u
      LEFT JOIN ${listedPriceLateral("u.provider", "u.model_id")} p ON true
     ORDER BY u.cost DESC, u.provider`;
  return rows.map((r) => {
    const tokens = new Decimal(r.input_tokens).plus(r.output_tokens);
    const cost = new Decimal(r.cost);
    const listed =
      r.list_in !== null && r.list_out !== null
        ? new Decimal(r.input_tokens).times(r.list_in).plus(new Decimal(r.output_tokens).times(r.list_out)).div(MILLION)
        : null;
    return {
      provider: r.provider,
      modelId: r.model_id,
      requests: r.requests,
      inputTokens: r.input_tokens,
      outputTokens: r.output_tokens,
      costUsd: cost.toFixed(2),
      actualPerM: tokens.isZero() ? null : cost.div(tokens).times(MILLION).toFixed(4),
      listedCostUsd: listed ? listed.toFixed(2) : null,
      listedInputPerM: r.list_in === null ? null : new Decimal(r.list_in).toFixed(2),
      listedOutputPerM: r.list_out === null ? null : new Decimal(r.list_out).toFixed(2),
    };
  });
}

export interface DatasetUsage {
  dataset: string;
  requests: number;
  inputTokens: string;
  outputTokens: string;
  costUsd: string;
  planned: { inputTokens: number; outputTokens: number } | null;
  /** Share of the planned output tokens generated, 0..100+ (one decimal). */
  outputDonePercent: string | null;
  /** What the whole planned dataset costs at the rate actually paid per output token so far. */
  projectedCostUsd: string | null;
}

export async function usageByDataset(db: DbOrTx, plan: Dataset[]): Promise<DatasetUsage[]> {
  const rows = await db.$queryRaw<Array<{ dataset: string | null; requests: number; input_tokens: string; output_tokens: string; cost: string }>>`
    SELECT dataset, sum(samples)::int AS requests, sum("inputTokens")::text AS input_tokens,
           sum("outputTokens")::text AS output_tokens, sum("costUsd")::text AS cost
      FROM "ProvenanceTally" GROUP BY dataset HAVING sum(samples) <> 0`;
  const byName = new Map(rows.map((r) => [r.dataset ?? "", r]));
  const names = [...plan.map((d) => d.name), ...rows.map((r) => r.dataset ?? "").filter((n) => !plan.some((d) => d.name === n))];
  return names
    .filter((name, i) => names.indexOf(name) === i)
    .map((name) => {
      const r = byName.get(name);
      const planned = plan.find((d) => d.name === name) ?? null;
      const out = new Decimal(r?.output_tokens ?? 0);
      const cost = new Decimal(r?.cost ?? 0);
      return {
        dataset: name === "" ? "(no dataset)" : name,
        requests: r?.requests ?? 0,
        inputTokens: r?.input_tokens ?? "0",
        outputTokens: out.toFixed(0),
        costUsd: cost.toFixed(2),
        planned: planned ? { inputTokens: planned.inputTokens, outputTokens: planned.outputTokens } : null,
        outputDonePercent: planned && planned.outputTokens > 0 ? out.div(planned.outputTokens).times(100).toFixed(1) : null,
        projectedCostUsd: planned && out.gt(0) ? cost.div(out).times(planned.outputTokens).toFixed(2) : null,
      };
    });
}

/**
 * What the rest of the plan costs at the rate actually paid so far: each planned dataset's output
 * tokens still to generate, at that dataset's own cost per output token (input included, as
 * `projectedCostUsd`), or at the rate over all usage for a dataset not started. Null until some
 * usage with output tokens is imported: without a rate paid there is nothing to project from.
 */
export function planCostToFinish(usage: DatasetUsage[]): { toFinishUsd: string; outputTokensLeft: string } | null {
  const totalOut = usage.reduce((s, u) => s.plus(u.outputTokens), new Decimal(0));
  if (totalOut.lte(0)) return null;
  const overallRate = usage.reduce((s, u) => s.plus(u.costUsd), new Decimal(0)).div(totalOut);
  let toFinish = new Decimal(0);
  let left = new Decimal(0);
  for (const u of usage) {
    if (!u.planned) continue;
    const done = new Decimal(u.outputTokens);
    const remaining = Decimal.max(0, new Decimal(u.planned.outputTokens).minus(done));
    const rate = done.gt(0) ? new Decimal(u.costUsd).div(done) : overallRate;
    toFinish = toFinish.plus(remaining.times(rate));
    left = left.plus(remaining);
  }
  return { toFinishUsd: toFinish.toFixed(2), outputTokensLeft: left.toFixed(0) };
}

export interface UsageTotals {
  records: number;
  costUsd: string;
  imports: Array<{ id: number; filename: string; importedAt: string; lines: number; accepted: number; duplicates: number; rejected: number }>;
}

export async function usageTotals(db: Db): Promise<UsageTotals> {
  const [[totals], imports] = await Promise.all([
    db.$queryRaw<Array<{ n: number; cost: string | null }>>`
      SELECT COALESCE(sum(samples), 0)::int AS n, sum("costUsd")::text AS cost FROM "ProvenanceTally"`,
    db.usageImport.findMany({ orderBy: { id: "desc" }, take: 10 }),
  ]);
  return {
    records: totals.n,
    costUsd: new Decimal(totals.cost ?? 0).toFixed(2),
    imports: imports.map((i) => ({
      id: i.id,
      filename: i.filename,
      importedAt: i.importedAt.toISOString(),
      lines: i.lines,
      accepted: i.accepted,
      duplicates: i.duplicates,
      rejected: i.rejected,
    })),
  };
}
