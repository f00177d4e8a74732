import type { Metadata } from "next";
import Decimal from "decimal.js";
import { BudgetAlertsForm } from "@/components/alerts/budget-alerts-form";
import { BudgetForm } from "@/components/spend/budget-form";
import { burnDetail } from "@/components/spend/burn-detail";
import { LazySpendChart } from "@/components/spend/lazy-spend-chart";
import { UsageByDatasetTable, UsageByProviderTable } from "@/components/usage/usage-tables";
import { UsageUploadForm } from "@/components/usage/upload-form";
import { formatUsd } from "@/lib/budget/cost";
import { getDb } from "@/lib/database";
import { formatUtc } from "@/lib/format";
import { spendPageData, type SpendPageData } from "@/lib/queries/spend-page";
import { DemoBanner } from "@/components/layout/demo-banner";
import { ProbeSpend } from "@/components/fidelity/probe-spend";
import { KeysSection } from "@/components/spend/keys/keys-section";
import { ActivitySection } from "@/components/spend/activity/activity-section";
import { budgetParsers } from "@/lib/view-state/budget";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Spend" };

interface Props {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function SpendPage({ searchParams }: Props) {
  const plan = budgetParsers.ds.parseServerSide((await searchParams).ds);
  const { keyConfigured, overview, demo, series, byProvider, byDataset, totals, probes, budgetAlert, keys, activity } = await spendPageData(await getDb(), plan);
  const projection =
    overview.latest && overview.spent && overview.runOut && overview.runOut.at !== "exhausted"
      ? {
          from: { at: overview.latest.at, spent: overview.spent },
          to: { at: overview.runOut.at, spent: overview.budget.amountUsd },
        }
      : null;

  return (
    <div className="space-y-6">
      {demo && <DemoBanner />}
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Spend</h1>
        <p className="mt-1 text-sm text-slate-600">
          What the OpenRouter key has spent against the budget, and what the pipeline’s own records say it cost.
        </p>
      </div>

      {!keyConfigured && (
        <div role="note" aria-label="Spend tracking is off" className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950">
          <p className="font-medium">Spend tracking is off: no OpenRouter API key is configured.</p>
          <p className="mt-1">
            Set <code className="font-mono">OPENROUTER_API_KEY</code> in the server’s environment and restart. Each poll cycle then
            reads <code className="font-mono">GET /key</code> (and <code className="font-mono">/credits</code> when the key may) and
            stores what was spent. The key stays on the server. Imported usage below works without a key.
          </p>
        </div>
      )}

      <section aria-labelledby="budget-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <h2 id="budget-heading" className="text-lg font-semibold">Budget</h2>
            <p className="text-sm text-slate-600">
              {formatUsd(new Decimal(overview.budget.amountUsd))} from {formatUtc(overview.budget.startAt)}
              {!overview.budget.saved && " (not saved yet: the seed’s $100 from the first snapshot)"}
            </p>
          </div>
          <BudgetForm amountUsd={overview.budget.amountUsd} startAt={overview.budget.startAt} />
        </div>
        <SpendFigures overview={overview} />
        {series.length > 0 ? (
          <LazySpendChart points={series} budgetUsd={overview.budget.amountUsd} projection={projection} />
        ) : (
          <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">
            No spend snapshots yet{keyConfigured ? ": they are stored with each poll cycle." : "."}
          </p>
        )}
        {overview.baseline && !overview.baseline.exact && (
          <p className="text-xs text-slate-500">
            Tracking began after the budget’s start: spend is counted from the first snapshot ({formatUtc(overview.baseline.at)}).
          </p>
        )}
        <BudgetAlertsForm initial={budgetAlert} />
      </section>

      <KeysSection data={keys} budgetUsd={overview.budget.amountUsd} />
      {activity && <ActivitySection data={activity} />}

      <section aria-labelledby="usage-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
        <div>
          <h2 id="usage-heading" className="text-lg font-semibold">Actual usage</h2>
          <p className="text-sm text-slate-600">
            The pipeline’s records are the truth about cost (each response’s <code className="font-mono">usage.cost</code>). Import
            chat completion responses or flat usage records as JSONL; importing the same file again changes nothing.
          </p>
        </div>
        <UsageUploadForm />
        {totals.records > 0 ? (
          <>
            <p className="text-sm">
              {totals.records.toLocaleString("en-US")} requests imported, <strong>${totals.costUsd}</strong> in all.
            </p>
            <h3 className="text-sm font-semibold text-slate-700">By provider</h3>
            <UsageByProviderTable rows={byProvider} />
            <h3 className="text-sm font-semibold text-slate-700">By dataset, against the plan</h3>
            <UsageByDatasetTable rows={byDataset} />
          </>
        ) : (
          <p className="text-sm text-slate-600">Nothing imported yet.</p>
        )}
      </section>
      <ProbeSpend rows={probes} />
    </div>
  );
}

function SpendFigures({ overview }: { overview: SpendPageData["overview"] }) {
  const { spent, remaining, burn, runOut } = overview;
  const figure = (label: string, value: string, detail?: string, tone = "") => (
    <div className={`rounded-md border border-slate-200 p-3 ${tone}`}>
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums">{value}</dd>
      {detail && <dd className="text-xs text-slate-600">{detail}</dd>}
    </div>
  );
  const short = remaining !== null && new Decimal(remaining).isNegative();
  return (
    <dl aria-label="Spend summary" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      {figure("Spent since start", spent ? formatUsd(new Decimal(spent)) : "—", overview.latest ? `as of ${formatUtc(overview.latest.at)}` : "no snapshot yet")}
      {figure("Remaining", remaining ? formatUsd(new Decimal(remaining)) : "—", short ? "over budget" : undefined, short ? "bg-red-50" : "")}
      {figure("Burn rate", burn ? `${formatUsd(new Decimal(burn.usdPerHour))}/h` : "—", burnDetail(overview))}
      {figure(
        "Runs out",
        runOut === null ? "—" : runOut.at === "exhausted" ? "Exhausted" : formatUtc(runOut.at),
        runOut && "hoursLeft" in runOut ? `in ${hours(runOut.hoursLeft)} at this rate` : runOut ? "the budget is spent" : burn ? "not burning" : "no burn rate yet",
        runOut?.at === "exhausted" ? "bg-red-50" : "",
      )}
    </dl>
  );
}

function hours(h: string): string {
  const value = Number(h);
  if (value < 1) return `${Math.max(1, Math.round(value * 60))} min`;
  if (value < 48) return `${value.toFixed(1)} h`;
  return `${(value / 24).toFixed(1)} days`;
}
