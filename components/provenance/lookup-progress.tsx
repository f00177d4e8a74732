import type { LookupProgress } from "@/lib/provenance/lookup";

// How far the lookups of id-only records in OpenRouter's /generation are (lib/provenance/lookup.ts).
// Rendered on the server; the page is dynamic, so a reload shows the job's progress.

export function LookupProgressPanel({ progress, hasKey, formatTime }: { progress: LookupProgress; hasKey: boolean; formatTime: (iso: string) => string }) {
  const total = progress.pending + progress.found + progress.notFound + progress.failed;
  if (total === 0) return null;
  const done = total - progress.pending;
  return (
    <section aria-labelledby="lookup-heading" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4" data-testid="lookup-progress">
      <h2 id="lookup-heading" className="text-lg font-semibold">Looking up providers</h2>
      <p className="text-sm text-slate-600">
        Records imported with only their generation id are looked up in OpenRouter’s <code className="font-mono">/generation</code>, a few a
        second, and judged when the answer comes; until then they count as <em>awaiting lookup</em>, never trusted.
      </p>
      <progress className="h-2 w-full" max={total} value={done} aria-label="Lookups answered" />
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        <div><dt className="text-xs text-slate-500 uppercase">Still to look up</dt><dd className="tabular-nums" data-testid="lookup-pending">{progress.pending.toLocaleString("en-US")}</dd></div>
        <div><dt className="text-xs text-slate-500 uppercase">Found</dt><dd className="tabular-nums" data-testid="lookup-found">{progress.found.toLocaleString("en-US")}</dd></div>
        <div><dt className="text-xs text-slate-500 uppercase">Unknown to OpenRouter</dt><dd className="tabular-nums">{progress.notFound.toLocaleString("en-US")}</dd></div>
        <div><dt className="text-xs text-slate-500 uppercase">Failed</dt><dd className="tabular-nums">{progress.failed.toLocaleString("en-US")}</dd></div>
      </dl>
      {progress.pending > 0 && (
        <p className="text-xs text-slate-500">
          {hasKey ? (progress.nextAt ? `Next due ${formatTime(progress.nextAt)}.` : "") : "No OPENROUTER_API_KEY is set: /generation needs it, so nothing is looked up."}
          {progress.lastError ? ` Last answer: ${progress.lastError}` : ""}
        </p>
      )}
    </section>
  );
}
