import type { ReactNode } from "react";
import { formatTokens } from "@/lib/budget/tokens";
import type { DatasetUsage, ProviderUsage } from "@/lib/usage/queries";

const th = "px-3 py-2 whitespace-nowrap";
// On a phone each row becomes a small card: the row's label, then one line per figure with its
// column's name (from data-label) on the left, so no cost column is cut off.
const num =
  "px-3 py-2 text-right tabular-nums whitespace-nowrap max-sm:flex max-sm:justify-between max-sm:gap-3 max-sm:py-1 max-sm:whitespace-normal max-sm:before:text-left max-sm:before:text-xs max-sm:before:text-slate-500 max-sm:before:uppercase max-sm:before:content-[attr(data-label)]";
const rowHeader = "px-3 py-2 text-left font-medium max-sm:block max-sm:pb-1";
const tokens = (s: string) => formatTokens(Number(s));

/** A usage table: the row label's column first, then number columns (right-aligned). */
function UsageTable({ label, columns, children }: { label: string; columns: string[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table aria-label={label} className="min-w-full text-sm max-sm:block">
        <thead className="bg-slate-50 text-left text-xs font-medium tracking-wide text-slate-500 uppercase max-sm:sr-only">
          <tr>
            {columns.map((c, i) => (
              <th key={c} scope="col" className={i === 0 ? th : `${th} text-right`}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 max-sm:block [&>tr]:max-sm:block [&>tr]:max-sm:py-2">{children}</tbody>
      </table>
    </div>
  );
}

/** Actual cost and tokens per provider, the $/M actually charged, and the cost at listed prices. */
export function UsageByProviderTable({ rows }: { rows: ProviderUsage[] }) {
  return (
    <UsageTable
      label="Actual usage by provider"
      columns={["Provider", "Requests", "Input", "Output", "Actual cost", "Actual $/M (all tokens)", "At listed prices"]}
    >
      {rows.map((r) => (
        <tr key={`${r.provider}|${r.modelId ?? ""}`}>
          <th scope="row" className={rowHeader}>
            {r.provider}
            {r.modelId && <span className="block font-mono text-xs font-normal text-slate-500">{r.modelId}</span>}
          </th>
          <td className={num} data-label="Requests">{r.requests.toLocaleString("en-US")}</td>
          <td className={num} data-label="Input">{tokens(r.inputTokens)}</td>
          <td className={num} data-label="Output">{tokens(r.outputTokens)}</td>
          <td className={`${num} font-semibold`} data-label="Actual cost">${r.costUsd}</td>
          <td className={num} data-label="Actual $/M (all tokens)">{r.actualPerM ? `$${r.actualPerM}` : "—"}</td>
          <td className={num} data-label="At listed prices">
            {r.listedCostUsd ? (
              <span>
                ${r.listedCostUsd}
                <span className="block text-xs text-slate-500">${r.listedInputPerM} / ${r.listedOutputPerM} per M</span>
              </span>
            ) : (
              <span className="text-slate-500">provider not in a snapshot</span>
            )}
          </td>
        </tr>
      ))}
    </UsageTable>
  );
}

/** Actual tokens and cost per dataset against the plan's tokens. */
export function UsageByDatasetTable({ rows }: { rows: DatasetUsage[] }) {
  return (
    <UsageTable
      label="Actual usage by dataset"
      columns={["Dataset", "Input (plan)", "Output (plan)", "Output done", "Actual cost", "Whole dataset at this rate"]}
    >
      {rows.map((r) => (
        <tr key={r.dataset}>
          <th scope="row" className={rowHeader}>{r.dataset}</th>
          <td className={num} data-label="Input (plan)">
            <span>
              {tokens(r.inputTokens)}
              {r.planned && <span className="text-slate-500"> / {formatTokens(r.planned.inputTokens)}</span>}
            </span>
          </td>
          <td className={num} data-label="Output (plan)">
            <span>
              {tokens(r.outputTokens)}
              {r.planned && <span className="text-slate-500"> / {formatTokens(r.planned.outputTokens)}</span>}
            </span>
          </td>
          <td className={num} data-label="Output done">{r.outputDonePercent ? `${r.outputDonePercent}%` : "—"}</td>
          <td className={`${num} font-semibold`} data-label="Actual cost">${r.costUsd}</td>
          <td className={num} data-label="Whole dataset at this rate">{r.projectedCostUsd ? `$${r.projectedCostUsd}` : "—"}</td>
        </tr>
      ))}
    </UsageTable>
  );
}
