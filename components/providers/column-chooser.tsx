"use client";

import { CHOOSABLE_COLUMNS, DEFAULT_COLUMNS, type ChoosableColumn } from "@/lib/view-state/comparison";

/** The provider table's column headers, also the chooser's checkbox labels. */
export const COLUMN_LABELS: Record<ChoosableColumn, string> = {
  tag: "Tag",
  quantization: "Quantization",
  inputPricePerM: "Input $/M",
  outputPricePerM: "Output $/M",
  cacheReadPricePerM: "Cache read $/M",
  status: "Status",
  uptime5m: "Uptime 5m",
  uptime30m: "Uptime 30m",
  uptime1d: "Uptime 1d",
  latencyP50Ms: "Latency p50",
  throughputP50: "Throughput p50",
  contextLength: "Context",
  maxCompletionTokens: "Max output",
};

interface Props {
  shown: readonly ChoosableColumn[];
  onChange(columns: ChoosableColumn[]): void;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((c) => b.includes(c));

/**
 * Which columns the provider table shows. The choice is kept in the link (`cols`), so a reload, a
 * copied link and a saved view show the same columns.
 */
export function ColumnChooser({ shown, onChange }: Props) {
  const toggle = (column: ChoosableColumn) => {
    const next = shown.includes(column) ? shown.filter((c) => c !== column) : [...shown, column];
    // In table order, so the link reads the same whichever order the boxes were clicked in.
    onChange(CHOOSABLE_COLUMNS.filter((c) => next.includes(c)));
  };
  const isDefault = sameSet(shown, DEFAULT_COLUMNS);
  return (
    <details className="group relative">
      <summary className="cursor-pointer list-none rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm text-slate-700 shadow-sm select-none hover:bg-slate-50">
        Columns <span className="text-slate-500">({shown.length + 2} of {CHOOSABLE_COLUMNS.length + 2})</span>
        <span aria-hidden className="ml-1 inline-block text-slate-400 group-open:rotate-180">▾</span>
      </summary>
      <fieldset className="absolute right-0 z-40 mt-1 w-64 rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-lg">
        <legend className="sr-only">Columns shown</legend>
        <p className="text-xs text-slate-500">Provider and Verdict always show.</p>
        <ul className="mt-2 grid grid-cols-1 gap-1">
          {CHOOSABLE_COLUMNS.map((c) => (
            <li key={c}>
              <label className="flex items-center gap-2 rounded px-1 py-0.5 hover:bg-slate-50">
                <input type="checkbox" checked={shown.includes(c)} onChange={() => toggle(c)} className="accent-indigo-600" />
                {COLUMN_LABELS[c]}
              </label>
            </li>
          ))}
        </ul>
        <button
          type="button"
          disabled={isDefault}
          onClick={() => onChange([...DEFAULT_COLUMNS])}
          className="mt-2 text-xs text-indigo-700 hover:underline disabled:text-slate-400 disabled:no-underline"
        >
          Back to the default columns
        </button>
      </fieldset>
    </details>
  );
}
