import type { ReactNode } from "react";
import { formatTokens } from "@/lib/budget/tokens";
import type { DatasetUsage, ProviderUsage } from "@/lib/usage/queries";

const th = "px-3 py-2 whitespace-nowrap";
const num = "px-3 py-2 text-right tabular-nums whitespace-nowrap";
const tokens = (s: string) => formatTokens(Number(s));

/** A usage table: the row label's column first, then number columns (right-aligned). */
function UsageTable({ label, columns, children }: { label: string; columns: string[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table aria-label={label} className="min-w-full text-sm">
        <thead className="bg-slate-50 text-left text-xs font-medium tracking-wide text-slate-500 uppercase">
          <tr>
            {columns.map((c, i) => (
              <th key={c} scope="col" className={i === 0 ? th : `${th} text-right`}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
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
          <th scope="row" className="px-3 py-2 text-left font-medium">
            {r.provider}
            {r.modelId && <span className="block font-mono text-xs font-normal text-slate-500">{r.modelId}</span>}
          </th>
          <td className={num}>{r.requests.toLocaleString("en-US")}</td>
          <td className={num}>{tokens(r.inputTokens)}</td>
          <td className={num}>{tokens(r.outputTokens)}</td>
          <td className={`${num} font-semibold`}>${r.costUsd}</td>
          <td className={num}>{r.actualPerM ? `$${r.actualPerM}` : "—"}</td>
          <td className={num}>
            {r.listedCostUsd ? (
              <>
                ${r.listedCostUsd}
                <span className="block text-xs text-slate-500">${r.listedInputPerM} / ${r.listedOutputPerM} per M</span>
              </>
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
          <th scope="row" className="px-3 py-2 text-left font-medium">{r.dataset}</th>
          <td className={num}>
            {tokens(r.inputTokens)}
            {r.planned && <span className="text-slate-500"> / {formatTokens(r.planned.inputTokens)}</span>}
          </td>
          <td className={num}>
            {tokens(r.outputTokens)}
            {r.planned && <span className="text-slate-500"> / {formatTokens(r.planned.outputTokens)}</span>}
          </td>
          <td className={num}>{r.outputDonePercent ? `${r.outputDonePercent}%` : "—"}</td>
          <td className={`${num} font-semibold`}>${r.costUsd}</td>
          <td className={num}>{r.projectedCostUsd ? `$${r.projectedCostUsd}` : "—"}</td>
        </tr>
      ))}
    </UsageTable>
  );
}
