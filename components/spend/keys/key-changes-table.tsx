import { formatUtc } from "@/lib/format";
import type { KeyChangeEntry } from "@/lib/keys/records";
import { CompactTable } from "../../ui/compact-table";

const ACTIONS: Record<KeyChangeEntry["action"], string> = {
  limit: "limit",
  disabled: "state",
  created: "created",
  pipeline_key: "pipeline key",
};

/** Every change made to a key from the dashboard: who, when, before and after. */
export function KeyChangesTable({ changes }: { changes: KeyChangeEntry[] }) {
  if (changes.length === 0) return <p className="text-sm text-slate-600">No key has been changed from the dashboard yet.</p>;
  return (
    <CompactTable label="Key changes" columns={["When", "Who", "Key", "What", "Before", "After"]}>
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
    </CompactTable>
  );
}
