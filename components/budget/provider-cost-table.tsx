import type Decimal from "decimal.js";
import { formatUsd, type BudgetEstimate, type ProviderEstimate } from "@/lib/budget/cost";

function Fit({ estimate: p }: { estimate: ProviderEstimate }) {
  return p.fits ? (
    <span className="text-emerald-700">Fits, {formatUsd(p.difference)} left</span>
  ) : (
    <>
      <span className="text-red-700">{formatUsd(p.difference.neg())} short</span>
      <span className="block text-xs text-slate-600">{p.coverage.text}</span>
    </>
  );
}

/** The plan's cost at each included provider, cheapest first; unpriced providers at the end. */
export function ProviderCostTable({ result, budget }: { result: BudgetEstimate; budget: Decimal }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table aria-label="Cost per provider" className="min-w-full text-sm">
        <thead className="bg-slate-50 text-left text-xs font-medium tracking-wide text-slate-500 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">Provider</th>
            <th scope="col" className="hidden px-3 py-2 text-right sm:table-cell">In $/M</th>
            <th scope="col" className="hidden px-3 py-2 text-right sm:table-cell">Out $/M</th>
            <th scope="col" className="px-3 py-2 text-right">Total</th>
            <th scope="col" className="hidden px-3 py-2 sm:table-cell">Budget {formatUsd(budget)}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {result.priced.map((p, i) => (
            <tr key={p.tag}>
              <th scope="row" className="px-3 py-2 text-left font-medium whitespace-nowrap">
                {p.provider}
                {i === 0 && (
                  <span className="ml-2 rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-medium text-emerald-800">cheapest</span>
                )}
                <span className="block font-mono text-xs font-normal text-slate-500">{p.tag}</span>
                <span className="block text-xs font-normal text-slate-500 sm:hidden">
                  ${p.inputPricePerM} / ${p.outputPricePerM} per M
                </span>
                <span className="mt-1 block text-xs font-normal sm:hidden">
                  <Fit estimate={p} />
                </span>
              </th>
              <td className="hidden px-3 py-2 text-right tabular-nums sm:table-cell">${p.inputPricePerM}</td>
              <td className="hidden px-3 py-2 text-right tabular-nums sm:table-cell">${p.outputPricePerM}</td>
              <td className="px-3 py-2 text-right font-semibold tabular-nums">{formatUsd(p.total)}</td>
              <td className="hidden min-w-36 px-3 py-2 sm:table-cell">
                <Fit estimate={p} />
              </td>
            </tr>
          ))}
          {result.unpriced.map((p) => (
            <tr key={p.tag} className="text-slate-500">
              <th scope="row" className="px-3 py-2 text-left font-medium">
                {p.provider}
                <span className="block font-mono text-xs font-normal">{p.tag}</span>
              </th>
              <td colSpan={4} className="px-3 py-2">no price</td>
            </tr>
          ))}
          {result.priced.length + result.unpriced.length === 0 && (
            <tr>
              <td colSpan={5} className="px-3 py-4 text-center text-slate-500">No providers are included.</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
