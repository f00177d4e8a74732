import type { RejudgeRequestView } from "@/lib/provenance/rejudge-requests";

// The re-judgements asked for and not done yet (lib/provenance/rejudge-requests.ts): one under way
// with its progress, one waiting for the job (its process stopped mid-pass), or one whose pass
// failed and is tried again. Rendered on the server; the page is dynamic, so a reload shows more.

export function RejudgeProgressPanel({ requests, formatTime }: { requests: RejudgeRequestView[]; formatTime: (iso: string) => string }) {
  if (requests.length === 0) return null;
  return (
    <section aria-labelledby="rejudge-heading" className="space-y-2 rounded-lg border border-amber-200 bg-amber-50 p-4" data-testid="rejudge-progress">
      <h2 id="rejudge-heading" className="text-lg font-semibold text-amber-950">Judging again</h2>
      <p className="text-sm text-amber-950">
        A fact these classes depend on changed. Until the pass below ends, the generations it covers show the classes they had
        before.
      </p>
      <ul className="space-y-3 text-sm">
        {requests.map((r) => (
          <li key={`${r.what}-${r.requestedAt}`} className="space-y-1">
            <p>
              <strong>{r.what.charAt(0).toUpperCase() + r.what.slice(1)}</strong>, after {r.reason} ({formatTime(r.requestedAt)}):{" "}
              {r.state === "running"
                ? `${r.judged.toLocaleString("en-US")}${r.total === null ? "" : ` of ${r.total.toLocaleString("en-US")}`} judged${r.startedAt ? ` since ${formatTime(r.startedAt)}` : ""}.`
                : r.state === "retrying"
                  ? `the last pass failed (${r.lastError}); it will be tried again ${r.nextAt ? `at ${formatTime(r.nextAt)}` : "soon"}.`
                  : "waiting for the re-judgement job (within a minute)."}
            </p>
            {r.state === "running" && r.total !== null && r.total > 0 && (
              <progress className="h-2 w-full" max={r.total} value={r.judged} aria-label={`Judged again: ${r.what}`} />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
