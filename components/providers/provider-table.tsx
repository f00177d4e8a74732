"use client";

import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
  type Table,
} from "@tanstack/react-table";
import { useMemo, type ReactNode } from "react";
import { formatInt, formatPercent, formatUsdPerM } from "@/lib/format";
import type { KnownQuantizationEntry } from "@/lib/known-quantization";
import type { ProviderRow } from "@/lib/queries/providers";
import type { ProbeFact, Verdict } from "@/lib/rules/evaluate";
import { CHOOSABLE_COLUMNS, type ChoosableColumn, type SortColumn, type SortState } from "@/lib/view-state/comparison";
import { VerdictBadge } from "../fidelity/verdict-badge";
import { ColumnChooser, COLUMN_LABELS } from "./column-chooser";
import { ProviderCards } from "./provider-cards";
import { QuantizationBadge } from "./quantization-badge";
import { probeBadgeTitle, RecordKnownButton } from "./record-known-button";
import { useKeepRowFocus, useRovingSortHeaders } from "./table-keyboard";
import { useOverflowsRight } from "./use-overflows-right";

export interface TableRow extends ProviderRow {
  verdict: Verdict;
  known: KnownQuantizationEntry | null;
  unhealthy: string | null;
  /** The latest fidelity probe's verdict, shown whatever the rules. */
  probe?: ProbeFact | null;
}

interface Props {
  rows: TableRow[];
  sort: SortState;
  onSortChange(sort: SortState): void;
  onToggle(row: TableRow): void;
  toggleLabel(row: TableRow): string;
  onRecordQuantization(row: TableRow): void;
  /** The optional columns shown (kept in the link). */
  columns: readonly ChoosableColumn[];
  onColumnsChange(columns: ChoosableColumn[]): void;
}

const num = (v: string | number | null) => (v === null ? undefined : Number(v));

/** The row actions, passed as the table's meta so the columns never change identity (a new cell
 * component on every render would remount the cells and drop the keyboard focus). */
type RowActions = Pick<Props, "onToggle" | "toggleLabel" | "onRecordQuantization">;
const actions = (table: Table<TableRow>) => table.options.meta as RowActions;

/**
 * The provider comparison: a table of the chosen columns, sortable by any, from a tablet's width
 * up; a card per provider on a phone. Both follow the same sort.
 */
export function ProviderTable({ rows, sort, onSortChange, onToggle, toggleLabel, onRecordQuantization, columns: shownColumns, onColumnsChange }: Props) {
  const columns = useMemo<ColumnDef<TableRow>[]>(
    () => [
      {
        id: "provider",
        header: "Provider",
        accessorFn: (r) => r.provider,
        cell: ({ row }) => <ProviderName row={row.original} />,
      },
      {
        id: "verdict",
        header: "Verdict",
        accessorFn: (r) => (r.verdict.included ? 0 : 1),
        cell: ({ row, table }) => {
          const v = row.original.verdict;
          return (
            <div className="flex min-w-36 flex-col items-start gap-1 whitespace-normal">
              <span className={v.included ? "font-medium text-emerald-700" : "text-slate-600"}>{v.label}</span>
              {v.unverified && <span className="text-[11px] text-amber-700">quantization unverified</span>}
              {row.original.probe && <VerdictBadge verdict={row.original.probe.verdict} title={probeBadgeTitle(row.original.probe)} />}
              <button
                type="button"
                data-row-toggle={row.original.tag}
                onClick={() => actions(table).onToggle(row.original)}
                className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-100"
              >
                {actions(table).toggleLabel(row.original)}
              </button>
            </div>
          );
        },
      },
      { id: "tag", header: COLUMN_LABELS.tag, accessorFn: (r) => r.tag, cell: ({ getValue }) => <code className="text-xs">{getValue<string>()}</code> },
      {
        id: "quantization",
        header: COLUMN_LABELS.quantization,
        accessorFn: (r) => r.known?.quantization ?? r.quantization ?? "",
        cell: ({ row, table }) => (
          // Narrow, wrapping: a team note (its author, date and reason) must not widen the table.
          <div className="flex max-w-44 flex-col items-start gap-1 whitespace-normal">
            <QuantizationBadge reported={row.original.quantization} known={row.original.known} />
            <RecordKnownButton row={row.original} onClick={() => actions(table).onRecordQuantization(row.original)} />
          </div>
        ),
      },
      priceColumn("inputPricePerM"),
      priceColumn("outputPricePerM"),
      priceColumn("cacheReadPricePerM"),
      { id: "status", header: COLUMN_LABELS.status, accessorFn: (r) => num(r.status), cell: ({ row }) => row.original.status ?? "—" },
      pctColumn("uptime5m"),
      pctColumn("uptime30m"),
      pctColumn("uptime1d"),
      {
        id: "latencyP50Ms",
        header: COLUMN_LABELS.latencyP50Ms,
        accessorFn: (r) => num(r.latencyP50Ms),
        cell: ({ row }) => (row.original.latencyP50Ms === null ? "—" : `${formatInt(Math.round(row.original.latencyP50Ms))} ms`),
      },
      {
        id: "throughputP50",
        header: COLUMN_LABELS.throughputP50,
        accessorFn: (r) => num(r.throughputP50),
        cell: ({ row }) => (row.original.throughputP50 === null ? "—" : `${row.original.throughputP50} tok/s`),
      },
      { id: "contextLength", header: COLUMN_LABELS.contextLength, accessorFn: (r) => num(r.contextLength), cell: ({ row }) => formatInt(row.original.contextLength) },
      {
        id: "maxCompletionTokens",
        header: COLUMN_LABELS.maxCompletionTokens,
        accessorFn: (r) => num(r.maxCompletionTokens),
        cell: ({ row }) => formatInt(row.original.maxCompletionTokens),
      },
    ],
    [],
  );

  // A stable array: TanStack memoises the sorted rows on it, and a new array every render would
  // re-sort, queue a state reset and render again, forever.
  const sorting: SortingState = useMemo(() => [{ id: sort.column, desc: sort.desc }], [sort.column, sort.desc]);
  const columnVisibility = useMemo(
    () => Object.fromEntries(CHOOSABLE_COLUMNS.map((c) => [c, shownColumns.includes(c)])),
    [shownColumns],
  );
  const [scroller, overflowsRight] = useOverflowsRight<HTMLDivElement>();
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting, columnVisibility },
    onSortingChange: (updater) => {
      const next = typeof updater === "function" ? updater(sorting) : updater;
      const first = next[0];
      onSortChange(first ? { column: first.id as SortColumn, desc: first.desc } : { column: "outputPricePerM", desc: false });
    },
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (r) => r.tag,
    meta: { onToggle, toggleLabel, onRecordQuantization } satisfies RowActions,
    enableSortingRemoval: false,
    autoResetAll: false,
    defaultColumn: { sortUndefined: "last", sortDescFirst: false },
  });

  const tableRef = useKeepRowFocus<HTMLTableElement>(rows);
  const sortHeaders = useRovingSortHeaders(table.getVisibleLeafColumns().map((c) => c.id), sort.column);
  const sortedRows = table.getRowModel().rows.map((r) => r.original);
  const hiddenCount = CHOOSABLE_COLUMNS.length - shownColumns.length;

  return (
    <div className="space-y-2">
      <div className="hidden items-center justify-between gap-3 md:flex">
        <p className="text-xs text-slate-500">
          {hiddenCount > 0 ? `${hiddenCount} column${hiddenCount === 1 ? "" : "s"} hidden: choose them under “Columns”.` : "All columns shown."}
          {overflowsRight && <span className="ml-2 font-medium text-amber-800">The table is wider than the screen: scroll it sideways →</span>}
        </p>
        <ColumnChooser shown={shownColumns} onChange={onColumnsChange} />
      </div>
      <div className="relative hidden rounded-lg border border-slate-200 bg-white shadow-sm md:block">
        <div ref={scroller} className="overflow-x-auto rounded-lg">
          <table ref={tableRef} aria-label="Providers" className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50">
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header, i) => {
                    const dir = header.column.getIsSorted();
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        aria-sort={dir === "asc" ? "ascending" : dir === "desc" ? "descending" : "none"}
                        className={`px-3 py-2 text-left text-xs font-medium tracking-wide whitespace-nowrap text-slate-500 uppercase ${i === 0 ? STICKY_FIRST + " bg-slate-50" : ""}`}
                      >
                        <button
                          type="button"
                          {...sortHeaders.props(header.column.id)}
                          onClick={header.column.getToggleSortingHandler()}
                          className="inline-flex items-center gap-1 uppercase hover:text-slate-900"
                        >
                          {flexRender(header.column.columnDef.header, header.getContext())}
                          <span aria-hidden className="text-slate-400">{dir === "asc" ? "▲" : dir === "desc" ? "▼" : "↕"}</span>
                        </button>
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody className="divide-y divide-slate-100">
              {table.getRowModel().rows.map((row) => {
                const rowBg = row.original.verdict.included ? "bg-white" : "bg-slate-50";
                return (
                  <tr key={row.id} data-included={row.original.verdict.included} className={row.original.verdict.included ? rowBg : `${rowBg} text-slate-500`}>
                    {row.getVisibleCells().map((cell, i) =>
                      i === 0 ? (
                        <th key={cell.id} scope="row" className={`px-3 py-2 text-left align-top font-normal ${STICKY_FIRST} ${rowBg}`}>
                          {flexRender(cell.column.columnDef.cell, cell.getContext())}
                        </th>
                      ) : (
                        <td key={cell.id} className="px-3 py-2 align-top whitespace-nowrap tabular-nums">
                          {flexRender(cell.column.columnDef.cell, cell.getContext())}
                        </td>
                      ),
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {overflowsRight && (
          <div aria-hidden className="pointer-events-none absolute inset-y-0 right-0 w-10 rounded-r-lg bg-gradient-to-l from-slate-400/30 to-transparent" />
        )}
      </div>
      <ProviderCards
        rows={sortedRows}
        onToggle={onToggle}
        toggleLabel={toggleLabel}
        onRecordQuantization={onRecordQuantization}
        header={(row) => <ProviderName row={row} />}
      />
    </div>
  );
}

// The provider column stays in view while the others scroll under it; the shadow marks its edge.
const STICKY_FIRST = "sticky left-0 z-10 shadow-[inset_-1px_0_0_var(--color-slate-200)]";

function ProviderName({ row }: { row: TableRow }): ReactNode {
  return (
    <span className="flex flex-col">
      <span className="font-medium text-slate-900">{row.provider}</span>
      {row.unhealthy && (
        <span className="mt-0.5 inline-flex w-fit items-center gap-1 rounded bg-red-100 px-1.5 text-[11px] font-medium text-red-800">
          <span aria-hidden>▲</span> Unhealthy: {row.unhealthy}
        </span>
      )}
    </span>
  );
}

function priceColumn(id: "inputPricePerM" | "outputPricePerM" | "cacheReadPricePerM"): ColumnDef<TableRow> {
  return { id, header: COLUMN_LABELS[id], accessorFn: (r) => num(r[id]), cell: ({ row }) => formatUsdPerM(row.original[id]) };
}

function pctColumn(id: "uptime5m" | "uptime30m" | "uptime1d"): ColumnDef<TableRow> {
  return { id, header: COLUMN_LABELS[id], accessorFn: (r) => num(r[id]), cell: ({ row }) => formatPercent(row.original[id]) };
}
