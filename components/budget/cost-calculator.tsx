"use client";

import Decimal from "decimal.js";
import { useSearchParams } from "next/navigation";
import { useQueryStates } from "nuqs";
import { useEffect, useMemo, useRef, useState } from "react";
import { readBudgetAmount } from "@/lib/budget/amount";
import { estimate, formatUsd, parseBudget, type Dataset, type PricedProviderInput } from "@/lib/budget/cost";
import { compactTokens, parseTokens } from "@/lib/budget/tokens";
import Link from "next/link";
import { budgetParsers, ignoredBudgetKeys, parseAsDatasets } from "@/lib/view-state/budget";
import { ProviderCostTable } from "./provider-cost-table";
import { validateRow, WorkloadTable, type DraftRow } from "./workload-table";
import { Input } from "@/components/ui/input";

// The data budget calculator: a workload of datasets, a budget, and what the plan costs at each
// included provider. The plan and the budget live in the URL (lib/view-state/budget.ts), so a
// shared link shows the same figures. Inputs are kept as typed; the URL holds the last valid plan.

export type CalculatorProvider = PricedProviderInput;

function toDrafts(datasets: Dataset[]): DraftRow[] {
  return datasets.map((d, i) => ({
    key: i,
    name: d.name,
    input: compactTokens(d.inputTokens),
    output: compactTokens(d.outputTokens),
  }));
}

function nextName(rows: DraftRow[]): string {
  const taken = new Set(rows.map((r) => r.name.trim()));
  const last = rows[rows.length - 1]?.name.trim().match(/^([A-Za-z]*)(\d+)$/);
  for (let n = last ? Number(last[2]) + 1 : rows.length + 1; ; n++) {
    const name = last ? `${last[1]}${n}` : `Dataset ${n}`;
    if (!taken.has(name)) return name;
  }
}

/** The budget stored on the spend page (or the seed's $100 when none was saved). */
export interface StoredBudget {
  amountUsd: string;
  saved: boolean;
}

interface Props {
  /** The providers the comparison rules include. */
  providers: CalculatorProvider[];
  storedBudget: StoredBudget;
  /** Which rules produced the included set, in a few words (lib/rules/describe.ts). */
  rulesNote?: string;
}

export function CostCalculator({ providers, storedBudget, rulesNote }: Props) {
  const [{ budget: whatIfBudget, ds }, setState] = useQueryStates(budgetParsers, { history: "replace" });
  const searchParams = useSearchParams();
  const ignored = useMemo(() => ignoredBudgetKeys((k) => searchParams.get(k)), [searchParams]);

  // One stored budget (the spend page's Budget rows). A budget typed here is a what-if: kept in the
  // link as `budget=`, labelled as such, and dropped from the link when it equals the stored one.
  const stored = new Decimal(storedBudget.amountUsd);
  const whatIf = whatIfBudget !== null && !new Decimal(whatIfBudget).eq(stored) ? whatIfBudget : null;
  const budget = whatIf ?? stored.toString();

  const [budgetDraft, setBudgetDraft] = useState(budget);
  useEffect(() => {
    // Follow the budget in force (the stored one changed, or "use the stored budget") unless the
    // field already says the same amount in other words.
    setBudgetDraft((draft) => (parseBudget(draft)?.eq(budget) ? draft : budget));
  }, [budget]);
  const [rows, setRows] = useState<DraftRow[]>(() => toDrafts(ds));
  const nextKey = useRef(rows.length);

  const names = rows.map((r) => r.name.trim());
  const errors = rows.map((r) => validateRow(r, names));
  const rowsValid = errors.every((e) => !e.name && !e.input && !e.output);
  const budgetRead = readBudgetAmount(budgetDraft);
  const budgetError = budgetRead.ok ? null : budgetRead.message;

  function commitRows(next: DraftRow[]) {
    setRows(next);
    const nextNames = next.map((r) => r.name.trim());
    const parsed: Dataset[] = [];
    for (const r of next) {
      const e = validateRow(r, nextNames);
      const input = parseTokens(r.input);
      const output = parseTokens(r.output);
      if (e.name || !input.ok || !output.ok) return; // the URL keeps the last valid plan
      parsed.push({ name: r.name.trim(), inputTokens: input.tokens, outputTokens: output.tokens });
    }
    void setState({ ds: parsed });
  }

  const budgetDecimal = new Decimal(budget);
  const result = useMemo(() => estimate(ds, new Decimal(budget), providers), [ds, budget, providers]);

  return (
    <section aria-labelledby="calculator-heading" className="min-w-0 space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="calculator-heading" className="text-lg font-semibold">Data budget</h2>
          <p className="text-sm text-slate-600">
            What the plan costs at each included provider, exact to the cent, and how far the budget goes in dataset order.
          </p>
        </div>
        <div>
          <label htmlFor="budget-input" className="block text-sm font-medium text-slate-700">Budget (USD)</label>
          <div className="mt-1 flex items-center gap-1">
            <span className="text-slate-500">$</span>
            <Input
              id="budget-input"
              value={budgetDraft}
              inputMode="decimal"
              aria-invalid={Boolean(budgetError)}
              aria-describedby={budgetError ? "budget-error" : undefined}
              onChange={(e) => {
                setBudgetDraft(e.target.value);
                const value = parseBudget(e.target.value);
                if (value) void setState({ budget: value.eq(stored) ? null : value.toFixed() });
              }}
              className="w-32 text-right font-mono"
            />
          </div>
          {budgetError && <p id="budget-error" className="mt-1 max-w-64 text-xs text-red-700">{budgetError}</p>}
        </div>
      </div>

      {whatIf !== null ? (
        <p role="note" aria-label="What-if budget" className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm text-indigo-950">
          <span>
            What-if: <strong>{formatUsd(new Decimal(whatIf))}</strong>; stored budget {formatUsd(stored)}
            {storedBudget.saved ? "" : " (the default: none saved yet)"}. The what-if is kept in this link only.
          </span>
          <button
            type="button"
            onClick={() => void setState({ budget: null })}
            className="rounded-md border border-indigo-300 bg-white px-2 py-0.5 text-sm text-indigo-800 hover:bg-indigo-100"
          >
            Use the stored budget
          </button>
        </p>
      ) : (
        <p className="text-xs text-slate-500">
          {storedBudget.saved ? "The stored budget, " : "The default budget (none saved yet), "}
          <Link href="/spend" className="text-indigo-700 underline hover:text-indigo-900">set on the Spend page</Link>. A different amount typed
          here is a what-if kept in the link.
        </p>
      )}

      {ignored.length > 0 && (
        <p role="note" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          The link’s {ignored.map((k) => (k === "ds" ? "workload (ds)" : "budget")).join(" and ")} could not be read, so{" "}
          {ignored.map((k) => (k === "ds" ? "the default plan" : "the stored budget")).join(" and ")}{" "}
          {ignored.length > 1 ? "are" : "is"} used instead.
        </p>
      )}

      <Summary result={result} budget={budgetDecimal} nothingIncluded={providers.length === 0} rulesNote={rulesNote} />

      {!rowsValid && (
        <p className="text-sm text-amber-800">Costs use the last valid plan until the highlighted values are fixed.</p>
      )}

      <div className="grid gap-5 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
        <div className="min-w-0 space-y-2">
          <h3 className="text-sm font-semibold text-slate-700">Workload</h3>
          <WorkloadTable
            rows={rows}
            errors={errors}
            totals={result.totals}
            onChange={(key, field, value) => commitRows(rows.map((r) => (r.key === key ? { ...r, [field]: value } : r)))}
            onRemove={(key) => commitRows(rows.filter((r) => r.key !== key))}
            onAdd={() => commitRows([...rows, { key: nextKey.current++, name: nextName(rows), input: "0", output: "10M" }])}
          />
          <p className="text-xs text-slate-500">Token counts accept 10M, 1.5k, 2500000 or 2,500,000.</p>
          <p className="text-sm">
            <Link href={`/spend?ds=${encodeURIComponent(parseAsDatasets.serialize(ds))}`} className="text-indigo-700 hover:underline">
              Compare this plan with actual usage and spend →
            </Link>
          </p>
        </div>
        <div className="min-w-0 space-y-2">
          <h3 className="text-sm font-semibold text-slate-700">Cost per provider</h3>
          <ProviderCostTable result={result} budget={budgetDecimal} />
        </div>
      </div>
    </section>
  );
}

function Summary({ result, budget, nothingIncluded, rulesNote }: { result: ReturnType<typeof estimate>; budget: Decimal; nothingIncluded: boolean; rulesNote?: string }) {
  const { cheapest, worstCase, priced, unpriced } = result;
  if (nothingIncluded) {
    return (
      <p role="status" aria-label="Budget summary" className="rounded-md bg-slate-100 px-3 py-2 text-sm">
        Nothing is included under the current rules, so there is no provider to price the plan at. Loosen a rule above.
      </p>
    );
  }
  if (!cheapest || !worstCase) {
    return (
      <p role="status" aria-label="Budget summary" className="rounded-md bg-slate-100 px-3 py-2 text-sm">
        None of the {unpriced.length} included {unpriced.length === 1 ? "provider has" : "providers have"} a listed price, so the plan cannot be priced.
      </p>
    );
  }
  const fits = cheapest.fits;
  return (
    <div role="status" aria-label="Budget summary" className="grid gap-3 sm:grid-cols-3">
      <div className="rounded-md border border-slate-200 bg-slate-50 p-3">
        <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Cheapest included</p>
        <p className="mt-1 text-xl font-semibold tabular-nums">{formatUsd(cheapest.total)}</p>
        <p className="text-sm text-slate-700">{cheapest.provider} ({cheapest.tag})</p>
        {rulesNote && <p className="mt-1 text-xs text-slate-500">{rulesNote}</p>}
      </div>
      <div className={`rounded-md border p-3 ${fits ? "border-emerald-200 bg-emerald-50" : "border-red-200 bg-red-50"}`}>
        <p className="text-xs font-medium tracking-wide text-slate-600 uppercase">Budget {formatUsd(budget)}</p>
        <p className="mt-1 text-sm font-semibold">
          {fits
            ? `Covers the plan at ${cheapest.provider}, ${formatUsd(cheapest.difference)} left over`
            : `Does not cover the plan: ${formatUsd(cheapest.difference.neg())} short at ${cheapest.provider}`}
        </p>
        {!fits && (
          <p className="text-sm text-slate-700">
            At {cheapest.provider} it {cheapest.coverage.text} ({cheapest.coverage.planFraction.times(100).floor().toString()}% of the plan).
          </p>
        )}
      </div>
      <div className="rounded-md border border-slate-200 bg-slate-50 p-3">
        <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Range across {priced.length} included</p>
        <p className="mt-1 text-xl font-semibold tabular-nums">
          {formatUsd(cheapest.total)}
          {priced.length > 1 && <> – {formatUsd(worstCase.total)}</>}
        </p>
        {priced.length > 1 ? (
          <p className="text-sm text-slate-700">
            Worst case, if OpenRouter sends the traffic to {worstCase.provider}: {formatUsd(worstCase.total)}
            {worstCase.fits ? `, ${formatUsd(worstCase.difference)} left` : `, ${formatUsd(worstCase.difference.neg())} short`}.
          </p>
        ) : (
          <p className="text-sm text-slate-700">One priced provider included.</p>
        )}
        {unpriced.length > 0 && <p className="text-xs text-slate-500">{unpriced.length} included without a price.</p>}
      </div>
    </div>
  );
}
