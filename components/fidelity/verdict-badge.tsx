// A probe verdict as a small badge, the same on the fidelity section and on the provider table.
// Verdicts of runs before the equivalence probe (matches, inconclusive) are shown for what they
// were: "no difference detected", a test without a margin, never as "equivalent".

const STYLES: Record<string, string> = {
  reference: "bg-sky-50 text-sky-800 ring-sky-200",
  equivalent: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  differs: "bg-red-50 text-red-800 ring-red-200",
  "cannot tell": "bg-slate-100 text-slate-700 ring-slate-300",
  unverifiable: "bg-slate-100 text-slate-700 ring-slate-300",
  "prompt-format": "bg-orange-50 text-orange-800 ring-orange-200",
  "not-pinned": "bg-amber-50 text-amber-900 ring-amber-200",
  matches: "bg-slate-50 text-slate-700 ring-slate-300",
  inconclusive: "bg-slate-100 text-slate-700 ring-slate-300",
};

export const VERDICT_LABELS: Record<string, string> = {
  reference: "reference",
  equivalent: "equivalent within Δ",
  differs: "differs by more than Δ",
  "cannot tell": "cannot tell",
  unverifiable: "unverifiable",
  "prompt-format": "prompt format differs",
  "not-pinned": "not pinned",
  matches: "no difference detected (old probe)",
  inconclusive: "inconclusive (old probe)",
};

export function VerdictBadge({ verdict, title }: { verdict: string; title?: string }) {
  return (
    <span title={title} className={`inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STYLES[verdict] ?? STYLES["cannot tell"]}`}>
      {VERDICT_LABELS[verdict] ?? verdict}
    </span>
  );
}
