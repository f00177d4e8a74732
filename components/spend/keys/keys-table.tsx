import type { ManagedKey } from "@/lib/keys/overview";
import { ChooseKeyButton } from "./choose-key-button";
import { usd } from "./money";
import { CompactTable, numCell } from "../../ui/compact-table";

/** The account's API keys as OpenRouter reports them, with the pipeline key marked. */
export function KeysTable({ keys, pipelineHash, canChange }: { keys: ManagedKey[]; pipelineHash: string | null; canChange: boolean }) {
  return (
    <CompactTable
      label="API keys"
      columns={[
        "Name",
        "Label",
        { label: "Today", numeric: true },
        { label: "Week", numeric: true },
        { label: "Month", numeric: true },
        { label: "Total", numeric: true },
        { label: "Limit", numeric: true },
        { label: "Remaining", numeric: true },
        "Resets",
        "State",
        { label: <span className="sr-only">Pipeline</span>, key: "pipeline" },
      ]}
    >
      {keys.map((key) => {
        const isPipeline = key.hash === pipelineHash;
        return (
          <tr key={key.hash} className={isPipeline ? "bg-indigo-50/60" : undefined}>
            <th scope="row" className="px-2 py-1.5 text-left font-medium">{key.name}</th>
            <td className="px-2 py-1.5 font-mono text-xs text-slate-600">{key.label ?? "—"}</td>
            <td className={numCell}>{usd(key.usage_daily)}</td>
            <td className={numCell}>{usd(key.usage_weekly)}</td>
            <td className={numCell}>{usd(key.usage_monthly)}</td>
            <td className={numCell}>{usd(key.usage)}</td>
            <td className={numCell}>{usd(key.limit, "none")}</td>
            <td className={numCell}>{usd(key.limit_remaining)}</td>
            <td className="px-2 py-1.5 text-slate-600">{key.limit_reset ?? "never"}</td>
            <td className="px-2 py-1.5">
              {key.disabled ? <span className="rounded bg-red-100 px-1.5 py-0.5 text-xs font-medium text-red-800">disabled</span> : <span className="text-xs text-emerald-700">enabled</span>}
            </td>
            <td className="px-2 py-1.5 text-right">
              {isPipeline ? (
                <span className="rounded bg-indigo-100 px-1.5 py-0.5 text-xs font-medium text-indigo-800">pipeline key</span>
              ) : canChange ? (
                <ChooseKeyButton hash={key.hash} name={key.name} />
              ) : null}
            </td>
          </tr>
        );
      })}
    </CompactTable>
  );
}
