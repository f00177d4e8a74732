"use client";

export interface LegendEntry {
  tag: string;
  provider: string;
  color: string;
  visible: boolean;
}

/** The shared legend: one toggle per endpoint, switching its line on or off in every chart. */
export function EndpointLegend({ entries, onToggle }: { entries: LegendEntry[]; onToggle: (tag: string) => void }) {
  return (
    <div role="group" aria-label="Endpoints shown" className="flex flex-wrap gap-1.5">
      {entries.map((e) => (
        <button
          key={e.tag}
          type="button"
          aria-pressed={e.visible}
          title={e.tag}
          onClick={() => onToggle(e.tag)}
          className={`inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs ${
            e.visible ? "border-slate-300 bg-white text-slate-800 shadow-sm" : "border-dashed border-slate-300 bg-slate-50 text-slate-500"
          }`}
        >
          <span aria-hidden className="inline-block h-2.5 w-2.5 rounded-full" style={{ background: e.visible ? e.color : "#cbd5e1" }} />
          {e.provider}
          <span className="font-mono text-[10px] text-slate-500">{e.tag}</span>
        </button>
      ))}
    </div>
  );
}
