import { formatUtc } from "@/lib/format";

interface Props {
  lastPoll: { at: string; ok: boolean; errorKind: string | null; error: string | null; attempts: number } | null;
  lastSuccessAt: string | null;
}

/** Says plainly how the last poll went, and how old the data shown is when it failed. */
export function PollStatus({ lastPoll, lastSuccessAt }: Props) {
  if (!lastPoll) return <span className="text-slate-500">Not polled yet</span>;
  if (lastPoll.ok) {
    return (
      <span className="text-emerald-700">
        <span aria-hidden>● </span>OK · {formatUtc(lastPoll.at)}
      </span>
    );
  }
  return (
    // A failure message may carry a long URL with no spaces: it wraps anywhere rather than overflow on a phone.
    <span className="text-red-700 [overflow-wrap:anywhere]">
      <span aria-hidden>● </span>Failed {formatUtc(lastPoll.at)}
      {lastPoll.error ? `: ${lastPoll.error}` : ""}
      <span className="block text-slate-600">
        {lastSuccessAt ? `Stale since ${formatUtc(lastSuccessAt)} (last successful poll)` : "No successful poll yet"}
      </span>
      {lastPoll.errorKind === "network" && (
        <span className="block text-slate-700">
          OpenRouter cannot be reached from this machine. Check its internet connection (or proxy and firewall); to try Routeboard without
          OpenRouter, run <code className="font-mono">npm run demo</code>, which serves recorded data from a local replica.
        </span>
      )}
    </span>
  );
}
