import Decimal from "decimal.js";
import Link from "next/link";
import { formatUsd } from "@/lib/budget/cost";
import { formatUtc } from "@/lib/format";
import type { SpendOverview } from "@/lib/spend/queries";

// The spend state on the home page: the budget, what remains of it and when it runs out at the
// current burn rate, as /spend computes them (lib/spend/queries.ts).

export function SpendSummary({ spend, keyConfigured, now }: { spend: SpendOverview; keyConfigured: boolean; now: number }) {
  const { budget, remaining, burn, runOut, latest } = spend;
  const short = remaining !== null && new Decimal(remaining).isNegative();
  return (
    <section aria-labelledby="spend-heading" className="rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm sm:px-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="spend-heading" className="text-lg font-semibold">Spend</h2>
        <Link href="/spend" className="text-sm text-indigo-700 hover:underline">
          Spend and usage →
        </Link>
      </div>
      {!keyConfigured && !latest ? (
        <p className="mt-1 text-sm text-slate-600">
          Spend tracking is off: set <code className="font-mono">OPENROUTER_API_KEY</code> on the server to record what the key spends.
        </p>
      ) : (
        <dl aria-label="Spend state" className="mt-2 grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Figure label="Budget" value={formatUsd(new Decimal(budget.amountUsd))} detail={`from ${formatUtc(budget.startAt)}`} />
          <Figure
            label="Remaining"
            value={remaining ? formatUsd(new Decimal(remaining)) : "—"}
            detail={short ? "over budget" : latest ? `as of ${formatUtc(latest.at)}` : "no spend snapshot yet"}
            tone={short ? "text-red-700" : ""}
          />
          <Figure
            label="Runs out"
            value={runOut === null ? "—" : runOut.at === "exhausted" ? "Exhausted" : formatUtc(runOut.at)}
            detail={
              runOut === null
                ? burn
                  ? "not burning"
                  : "no burn rate yet"
                : runOut.at === "exhausted"
                  ? "the budget is spent"
                  : `in ${untilText(new Date(runOut.at).getTime() - now)} at this rate`
            }
            tone={runOut?.at === "exhausted" ? "text-red-700" : ""}
          />
          <Figure
            label="Burn rate"
            value={burn ? `${formatUsd(new Decimal(burn.usdPerHour))}/h` : "—"}
            detail={burn ? `measured over ${untilText(new Date(burn.to).getTime() - new Date(burn.from).getTime())}, to ${formatUtc(burn.to)}` : "not enough spend snapshots yet"}
          />
        </dl>
      )}
    </section>
  );
}

function Figure({ label, value, detail, tone = "" }: { label: string; value: string; detail?: string; tone?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className={`text-xl font-semibold tabular-nums ${tone}`}>{value}</dd>
      {detail && <dd className="text-xs break-words text-slate-600">{detail}</dd>}
    </div>
  );
}

/** A duration in words: "under a minute", "4 min", "5.5 h", "2.3 days". */
function untilText(ms: number): string {
  const hours = ms / 3_600_000;
  if (ms < 60_000) return "under a minute";
  if (hours < 1) return `${Math.round(hours * 60)} min`;
  if (hours < 48) return `${hours.toFixed(1)} h`;
  return `${(hours / 24).toFixed(1)} days`;
}
