import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";
import { STACKED_BOX, STACKED_HEAD, STACKED_TABLE } from "./stacked-table";

// The small tables of the spend page (keys, key changes, actual prices, reconciliation): one
// shell, so they read alike and a column is one entry. Number cells use `numCell`. On a phone each
// row is a card (components/ui/stacked-table.ts): every cell is labelled with its column here, so
// the tables need not repeat their column names.

export const numCell = "px-2 py-1.5 text-right tabular-nums";

const th = "px-2 py-1.5 text-left text-xs font-medium tracking-wide text-slate-500 uppercase";

export interface CompactColumn {
  label: ReactNode;
  /** Right-aligned, as numbers are. */
  numeric?: boolean;
  /** A key when the label is not a string. */
  key?: string;
}

type CellProps = { children?: ReactNode; "data-label"?: string };

/** Each row's cells, given their column's name as `data-label` (a label that is not text gives none). */
function labelCells(rows: ReactNode, labels: string[]): ReactNode {
  return Children.map(rows, (row) => {
    if (!isValidElement<CellProps>(row)) return row;
    const cells = Children.map(row.props.children, (cell, i) =>
      isValidElement<CellProps>(cell) ? cloneElement(cell as ReactElement<CellProps>, { "data-label": labels[i] ?? "" }) : cell,
    );
    return cloneElement(row, {}, cells);
  });
}

export function CompactTable({ label, columns, children }: { label: string; columns: Array<string | CompactColumn>; children: ReactNode }) {
  const normalised = columns.map((c) => (typeof c === "string" ? { label: c } : c));
  const labels = normalised.map((c) => (typeof c.label === "string" ? c.label : ""));
  return (
    <div className={STACKED_BOX}>
      <table aria-label={label} className={`min-w-full divide-y divide-slate-200 text-sm ${STACKED_TABLE}`}>
        <thead className={STACKED_HEAD}>
          <tr>
            {normalised.map((column) => (
              <th key={column.key ?? String(column.label)} scope="col" className={column.numeric ? `${th} text-right` : th}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{labelCells(children, labels)}</tbody>
      </table>
    </div>
  );
}
