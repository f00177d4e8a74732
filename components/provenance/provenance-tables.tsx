import { formatTokens } from "@/lib/budget/tokens";
import { PROVENANCE_CLASSES } from "@/lib/provenance/judge";
import type { ProvenanceSummary } from "@/lib/provenance/queries";

const th = "px-3 py-2 whitespace-nowrap";
const num = "px-3 py-2 text-right tabular-nums whitespace-nowrap";
const head = "bg-slate-50 text-left text-xs font-medium tracking-wide text-slate-500 uppercase";
const tokens = (s: string) => formatTokens(Number(s));
const BADGE: Record<string, string> = {
  trusted: "bg-emerald-100 text-emerald-900",
  unverified: "bg-slate-100 text-slate-800",
  suspect: "bg-amber-100 text-amber-900",
  excluded: "bg-red-100 text-red-900",
  awaiting: "bg-indigo-50 text-indigo-900",
};
/** How a class reads where its value alone would not say it (an id-only record not yet looked up). */
const LABEL: Record<string, string> = { awaiting: "awaiting lookup" };

function ClassBadge({ cls }: { cls: string }) {
  return <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${BADGE[cls] ?? ""}`}>{LABEL[cls] ?? cls}</span>;
}

/** Per class (with its export links and when it was last computed), per provider and per day. */
export function ProvenanceTables({ summary, exportQuery, formatTime }: { summary: ProvenanceSummary; exportQuery: string; formatTime: Record<string, string> }) {
  const providers = [...new Set(summary.byProvider.map((r) => r.provider))];
  const days = [...new Set(summary.byDay.map((r) => r.day))];
  const cell = (rows: Array<{ class: string; samples: number; outputTokens: string }>, cls: string) => {
    const r = rows.find((x) => x.class === cls);
    return r ? `${r.samples.toLocaleString("en-US")} · ${tokens(r.outputTokens)}` : "—";
  };
  return (
    <>
      <section aria-labelledby="classes-heading" className="space-y-2">
        <h2 id="classes-heading" className="text-lg font-semibold">By class</h2>
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table aria-label="Generations by class" className="min-w-full text-sm">
            <thead className={head}>
              <tr>
                <th scope="col" className={th}>Class</th>
                <th scope="col" className={`${th} text-right`}>Samples</th>
                <th scope="col" className={`${th} text-right`}>Input tokens</th>
                <th scope="col" className={`${th} text-right`}>Output tokens</th>
                <th scope="col" className={`${th} text-right`}>Cost</th>
                <th scope="col" className={th}>Last computed</th>
                <th scope="col" className={th}>Export</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {summary.totals.map((t) => (
                <tr key={t.class} data-class={t.class}>
                  <th scope="row" className="px-3 py-2 text-left font-medium"><ClassBadge cls={t.class} /></th>
                  <td className={num} data-testid={`samples-${t.class}`}>{t.samples.toLocaleString("en-US")}</td>
                  <td className={num}>{tokens(t.inputTokens)}</td>
                  <td className={num}>{tokens(t.outputTokens)}</td>
                  <td className={num}>${t.costUsd}</td>
                  <td className="px-3 py-2 whitespace-nowrap text-slate-600">{formatTime[t.class]}</td>
                  <td className="px-3 py-2 whitespace-nowrap">
                    <a href={`/api/provenance?class=${t.class}${exportQuery}&format=ids`} download className="text-indigo-700 underline">
                      ids<span className="sr-only"> of {t.class} generations</span>
                    </a>{" "}
                    ·{" "}
                    <a href={`/api/provenance?class=${t.class}${exportQuery}&format=csv`} download className="text-indigo-700 underline">
                      CSV<span className="sr-only"> of {t.class} generations with reasons</span>
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="providers-heading" className="space-y-2">
        <h2 id="providers-heading" className="text-lg font-semibold">Per provider</h2>
        <p className="text-xs text-slate-500">Samples · output tokens, by the provider the record names.</p>
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table aria-label="Generations per provider" className="min-w-full text-sm">
            <thead className={head}>
              <tr>
                <th scope="col" className={th}>Provider</th>
                {PROVENANCE_CLASSES.map((c) => (
                  <th key={c} scope="col" className={`${th} text-right`}>{c}</th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {providers.map((p) => (
                <tr key={p}>
                  <th scope="row" className="px-3 py-2 text-left font-medium">{p}</th>
                  {PROVENANCE_CLASSES.map((c) => (
                    <td key={c} className={num}>{cell(summary.byProvider.filter((r) => r.provider === p), c)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="days-heading" className="space-y-2">
        <h2 id="days-heading" className="text-lg font-semibold">Per day (UTC)</h2>
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table aria-label="Generations per day" className="min-w-full text-sm">
            <thead className={head}>
              <tr>
                <th scope="col" className={th}>Day</th>
                {PROVENANCE_CLASSES.map((c) => (
                  <th key={c} scope="col" className={`${th} text-right`}>{c}</th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {days.map((d) => (
                <tr key={d}>
                  <th scope="row" className="px-3 py-2 text-left font-medium">{d}</th>
                  {PROVENANCE_CLASSES.map((c) => (
                    <td key={c} className={num}>{cell(summary.byDay.filter((r) => r.day === d), c)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
