import Decimal from "decimal.js";
import type { ProbeSpendRow } from "@/lib/probe/spend";
import { formatUtc } from "@/lib/format";

// Probe spend on the spend page: what the fidelity probes cost per model (the sum of their answers' usage.cost).

export function ProbeSpend({ rows }: { rows: ProbeSpendRow[] }) {
  const total = rows.reduce((sum, r) => sum.plus(r.costUsd), new Decimal(0));
  return (
    <section aria-labelledby="probe-spend-heading" className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="probe-spend-heading" className="text-lg font-semibold">Probe spend</h2>
      {rows.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">No fidelity probe has run yet.</p>
      ) : (
        <table className="mt-2 text-left text-sm">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className="py-1 pr-6">Model</th>
              <th className="py-1 pr-6">Runs</th>
              <th className="py-1 pr-6">Cost</th>
              <th className="py-1">Last run</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.modelId} className="border-t border-slate-100">
                <td className="py-1 pr-6 font-mono text-xs">{r.modelId}</td>
                <td className="py-1 pr-6">{r.runs}</td>
                <td className="py-1 pr-6 font-mono">${new Decimal(r.costUsd).toFixed(4)}</td>
                <td className="py-1">{formatUtc(r.lastRunAt)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t border-slate-300 font-medium">
              <td className="py-1 pr-6">All probes</td>
              <td />
              <td className="py-1 pr-6 font-mono">${total.toFixed(4)}</td>
              <td />
            </tr>
          </tfoot>
        </table>
      )}
    </section>
  );
}
