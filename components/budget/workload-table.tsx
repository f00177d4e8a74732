"use client";

import { useId } from "react";
import { formatTokens, parseTokens } from "@/lib/budget/tokens";
import { DATASET_NAME, MAX_DATASETS } from "@/lib/view-state/budget";
import { Input } from "@/components/ui/input";

// The workload as editable rows. Each field is kept as typed; a value that does not parse gets
// an inline message and is never turned into a number.

export interface DraftRow {
  key: number;
  name: string;
  input: string;
  output: string;
}

export interface RowErrors {
  name?: string;
  input?: string;
  output?: string;
}

export function validateRow(row: DraftRow, names: string[]): RowErrors {
  const errors: RowErrors = {};
  const name = row.name.trim();
  if (!DATASET_NAME.test(name)) {
    errors.name = name === "" ? "Name the dataset" : "Letters, digits, spaces and . _ ( ) + - only, up to 40";
  } else if (names.filter((n) => n === name).length > 1) {
    errors.name = "Another dataset has this name";
  }
  const input = parseTokens(row.input);
  if (!input.ok) errors.input = input.error;
  const output = parseTokens(row.output);
  if (!output.ok) errors.output = output.error;
  return errors;
}

interface Props {
  rows: DraftRow[];
  errors: RowErrors[];
  totals: { inputTokens: number; outputTokens: number };
  onChange(key: number, field: "name" | "input" | "output", value: string): void;
  onRemove(key: number): void;
  onAdd(): void;
}

export function WorkloadTable({ rows, errors, totals, onChange, onRemove, onAdd }: Props) {
  const id = useId();
  return (
    <div className="space-y-2">
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table aria-label="Workload" className="min-w-full text-sm">
          <thead className="bg-slate-50 text-left text-xs font-medium tracking-wide text-slate-500 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2">Dataset</th>
              <th scope="col" className="px-3 py-2">Input tokens</th>
              <th scope="col" className="px-3 py-2">Output tokens</th>
              <th scope="col" className="px-3 py-2"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row, index) => {
              const e = errors[index] ?? {};
              const label = row.name.trim() || `row ${index + 1}`;
              return (
                <tr key={row.key} className="align-top">
                  {(["name", "input", "output"] as const).map((field) => {
                    const errorId = `${id}-${row.key}-${field}-error`;
                    const names = { name: "Dataset name", input: "Input tokens", output: "Output tokens" };
                    return (
                      <td key={field} className="px-3 py-2">
                        <Input
                          aria-label={`${names[field]}, ${label}`}
                          aria-invalid={Boolean(e[field])}
                          aria-describedby={e[field] ? errorId : undefined}
                          value={row[field]}
                          inputMode={field === "name" ? "text" : "decimal"}
                          spellCheck={false}
                          onChange={(ev) => onChange(row.key, field, ev.target.value)}
                          className="w-full min-w-20 font-mono text-sm"
                        />
                        {e[field] && (
                          <p id={errorId} className="mt-1 max-w-56 text-xs text-red-700">{e[field]}</p>
                        )}
                      </td>
                    );
                  })}
                  <td className="px-3 py-2 text-right">
                    <button
                      type="button"
                      onClick={() => onRemove(row.key)}
                      disabled={rows.length <= 1}
                      aria-label={`Remove ${label}`}
                      className="rounded px-2 py-1 text-slate-500 hover:bg-slate-100 hover:text-red-700 disabled:opacity-40"
                    >
                      ✕
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
          <tfoot className="bg-slate-50 text-slate-700">
            <tr>
              <th scope="row" className="px-3 py-2 text-left font-medium">Total</th>
              <td className="px-3 py-2 tabular-nums">{formatTokens(totals.inputTokens)}</td>
              <td className="px-3 py-2 tabular-nums">{formatTokens(totals.outputTokens)}</td>
              <td />
            </tr>
          </tfoot>
        </table>
      </div>
      <button
        type="button"
        onClick={onAdd}
        disabled={rows.length >= MAX_DATASETS}
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50 disabled:opacity-50"
      >
        Add dataset
      </button>
    </div>
  );
}
