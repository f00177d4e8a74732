import { formatUtc } from "@/lib/format";
import type { KeyChangeEntry } from "@/lib/keys/records";

const ACTIONS: Record<KeyChangeEntry["action"], string> = {
  limit: "limit",
  disabled: "state",
  created: "created",
  pipeline_key: "pipeline key",
};

/** Every change made to a key from the dashboard: who, when, before and after. */
export function KeyChangesTable({ changes }: { changes: KeyChangeEntry[] }) {
  if (changes.length === 0) return <p className="text-sm text-slate-600">No key has been changed from the dashboard yet.</p>;
  const th = "px-2 py-1.5 text-left text-xs font-medium tracking-wide text-slate-500 uppercase";
  return (
    <div className="overflow-x-auto">
      <table aria-label="Key changes" className="min-w-full divide-y divide-slate-200 text-sm">
        <thead>
          <tr>
            <th scope="col" className={th}>When</th>
            <th scope="col" className={th}>Who</th>
            <th scope="col" className={th}>Key</th>
            <th scope="col" className={th}>What</th>
            <th scope="col" className={th}>Before</th>
            <th scope="col" className={th}>After</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {changes.map((c, i) => (
            <tr key={`${c.at}-${i}`}>
              <td className="px-2 py-1.5 whitespace-nowrap text-slate-600">{formatUtc(c.at)}</td>
              <td className="px-2 py-1.5">{c.actor}</td>
              <td className="px-2 py-1.5">{c.keyName} <span className="font-mono text-xs text-slate-500">{c.keyHash.slice(0, 8)}</span></td>
              <td className="px-2 py-1.5">{ACTIONS[c.action] ?? c.action}</td>
              <td className="px-2 py-1.5 text-slate-600">{c.before ?? "—"}</td>
              <td className="px-2 py-1.5 font-medium">{c.after ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
