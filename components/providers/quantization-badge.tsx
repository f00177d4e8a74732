import { QUANT_CLASSES, classOf, type QuantClass } from "@/lib/rules/quantization";

const STYLE: Record<QuantClass, string> = {
  "4bit": "bg-rose-50 text-rose-800 ring-rose-200",
  "8bit": "bg-amber-50 text-amber-800 ring-amber-200",
  full: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  unknown: "bg-slate-100 text-slate-700 ring-slate-300",
};

interface Props {
  reported: string | null;
  known?: { quantization: string; note: string; recordedBy: string; recordedAt: string } | null;
}

/** The reported quantization as a badge coloured by class, and the team's value beside it. */
export function QuantizationBadge({ reported, known }: Props) {
  const shown = known?.quantization ?? reported;
  const cls = classOf(shown);
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      {known && (
        <span className="text-xs text-slate-500 line-through" title="What OpenRouter reports">
          {reported ?? "not reported"}
        </span>
      )}
      <span
        className={`inline-flex items-center rounded px-1.5 py-0.5 font-mono text-xs ring-1 ring-inset ${STYLE[cls]}`}
        title={`${QUANT_CLASSES[cls].label}${known ? ` — team: ${known.note} (${known.recordedBy}, ${known.recordedAt.slice(0, 10)})` : ""}`}
      >
        {shown ?? "not reported"}
      </span>
      {known && (
        <span className="text-[10px] text-indigo-700">
          <span className="font-semibold tracking-wide uppercase">team</span> · {known.recordedBy}, {known.recordedAt.slice(0, 10)}
        </span>
      )}
      {known && (
        // The team's reason, on the row itself: a reader should not have to open the dialog to learn
        // why the rules use a value OpenRouter does not report. Long notes are cut to three lines
        // (the whole note is in the title and the dialog).
        <span
          title={known.note}
          className="line-clamp-3 block w-full max-w-60 text-[11px] leading-snug whitespace-normal text-slate-600 italic"
        >
          <span className="sr-only">Team note: </span>“{known.note}”
        </span>
      )}
    </span>
  );
}
