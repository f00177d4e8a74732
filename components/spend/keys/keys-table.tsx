import type { ManagedKey } from "@/lib/openrouter/management";
import { ChooseKeyButton } from "./choose-key-button";
import { usd } from "./money";

/** The account's API keys as OpenRouter reports them, with the pipeline key marked. */
export function KeysTable({ keys, pipelineHash, canChange }: { keys: ManagedKey[]; pipelineHash: string | null; canChange: boolean }) {
  const th = "px-2 py-1.5 text-left text-xs font-medium tracking-wide text-slate-500 uppercase";
  const num = "px-2 py-1.5 text-right tabular-nums";
  return (
    <div className="overflow-x-auto">
      <table aria-label="API keys" className="min-w-full divide-y divide-slate-200 text-sm">
        <thead>
          <tr>
            <th scope="col" className={th}>Name</th>
            <th scope="col" className={th}>Label</th>
            <th scope="col" className={`${th} text-right`}>Today</th>
            <th scope="col" className={`${th} text-right`}>Week</th>
            <th scope="col" className={`${th} text-right`}>Month</th>
            <th scope="col" className={`${th} text-right`}>Total</th>
            <th scope="col" className={`${th} text-right`}>Limit</th>
            <th scope="col" className={`${th} text-right`}>Remaining</th>
            <th scope="col" className={th}>Resets</th>
            <th scope="col" className={th}>State</th>
            <th scope="col" className={th}><span className="sr-only">Pipeline</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {keys.map((key) => {
            const isPipeline = key.hash === pipelineHash;
            return (
              <tr key={key.hash} className={isPipeline ? "bg-indigo-50/60" : undefined}>
                <th scope="row" className="px-2 py-1.5 text-left font-medium">{key.name}</th>
                <td className="px-2 py-1.5 font-mono text-xs text-slate-600">{key.label ?? "—"}</td>
                <td className={num}>{usd(key.usage_daily)}</td>
                <td className={num}>{usd(key.usage_weekly)}</td>
                <td className={num}>{usd(key.usage_monthly)}</td>
                <td className={num}>{usd(key.usage)}</td>
                <td className={num}>{usd(key.limit, "none")}</td>
                <td className={num}>{usd(key.limit_remaining)}</td>
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
        </tbody>
      </table>
    </div>
  );
}
