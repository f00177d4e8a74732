"use client";

import { RANGES, type Range } from "@/lib/history/buckets";

const LABELS: Record<Range, string> = { "24h": "24 h", "7d": "7 d", "30d": "30 d", "90d": "90 d" };

export function RangePicker({ value, onChange }: { value: Range; onChange: (range: Range) => void }) {
  return (
    <div role="group" aria-label="Range" className="inline-flex overflow-hidden rounded-md border border-slate-300 bg-white shadow-sm">
      {RANGES.map((r) => (
        <button
          key={r}
          type="button"
          aria-pressed={r === value}
          onClick={() => onChange(r)}
          className={`border-l border-slate-300 px-3 py-1 text-sm first:border-l-0 ${
            r === value ? "bg-indigo-600 font-medium text-white" : "text-slate-700 hover:bg-slate-50"
          }`}
        >
          {LABELS[r]}
        </button>
      ))}
    </div>
  );
}
