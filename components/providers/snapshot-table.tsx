import { formatInt, formatPercent, formatUsdPerM } from "@/lib/format";
import { isKnownQuantization } from "@/lib/openrouter/schemas";
import type { ProviderRow } from "@/lib/queries/providers";

/** The latest snapshot as a plain table. */
export function SnapshotTable({ endpoints }: { endpoints: ProviderRow[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table aria-label="Providers" className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-medium tracking-wide text-slate-500 uppercase">
          <tr>
            {["Provider", "Tag", "Quantization", "Input $/M", "Output $/M", "Status", "Uptime 30m", "Context"].map((h) => (
              <th key={h} scope="col" className="px-3 py-2 whitespace-nowrap">{h}</th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {endpoints.map((e) => (
            <tr key={e.tag}>
              <th scope="row" className="px-3 py-2 text-left font-medium">{e.provider}</th>
              <td className="px-3 py-2 font-mono text-xs">{e.tag}</td>
              <td className="px-3 py-2">
                {e.quantization ?? "not reported"}
                {e.quantization !== null && !isKnownQuantization(e.quantization) && (
                  <span className="ml-1 text-xs text-amber-700" title="Not a quantization OpenRouter is known to report; shown exactly as it came">
                    (unrecognised)
                  </span>
                )}
              </td>
              <td className="px-3 py-2 tabular-nums">{formatUsdPerM(e.inputPricePerM)}</td>
              <td className="px-3 py-2 tabular-nums">{formatUsdPerM(e.outputPricePerM)}</td>
              <td className="px-3 py-2 tabular-nums">{e.status ?? "—"}</td>
              <td className="px-3 py-2 tabular-nums">{formatPercent(e.uptime30m)}</td>
              <td className="px-3 py-2 tabular-nums">{formatInt(e.contextLength)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
