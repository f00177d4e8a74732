import type { ReactNode } from "react";

// The small tables of the spend page (keys, key changes, actual prices, reconciliation): one
// shell, so they read alike and a column is one entry. Number cells use `numCell`.

export const numCell = "px-2 py-1.5 text-right tabular-nums";

const th = "px-2 py-1.5 text-left text-xs font-medium tracking-wide text-slate-500 uppercase";

export interface CompactColumn {
  label: ReactNode;
  /** Right-aligned, as numbers are. */
  numeric?: boolean;
  /** A key when the label is not a string. */
  key?: string;
}

export function CompactTable({ label, columns, children }: { label: string; columns: Array<string | CompactColumn>; children: ReactNode }) {
  return (
    <div className="overflow-x-auto">
      <table aria-label={label} className="min-w-full divide-y divide-slate-200 text-sm">
        <thead>
          <tr>
            {columns.map((c) => {
              const column = typeof c === "string" ? { label: c } : c;
              return (
                <th key={column.key ?? String(column.label)} scope="col" className={column.numeric ? `${th} text-right` : th}>
                  {column.label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}
