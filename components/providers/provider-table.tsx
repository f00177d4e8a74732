"use client";

import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
} from "@tanstack/react-table";
import { useMemo } from "react";
import { formatInt, formatPercent, formatUsdPerM } from "@/lib/format";
import type { KnownQuantizationEntry } from "@/lib/known-quantization";
import type { ProviderRow } from "@/lib/queries/providers";
import type { ProbeFact, Verdict } from "@/lib/rules/evaluate";
import { VerdictBadge } from "../fidelity/verdict-badge";
import type { SortColumn, SortState } from "@/lib/view-state/comparison";
import { QuantizationBadge } from "./quantization-badge";

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
}

const num = (v: string | number | null) => (v === null ? undefined : Number(v));

/** The provider comparison table: one row per endpoint, sortable by any column. */
export function ProviderTable({ rows, sort, onSortChange, onToggle, toggleLabel, onRecordQuantization }: Props) {
  const columns = useMemo<ColumnDef<TableRow>[]>(
    () => [
      {
        id: "provider",
        header: "Provider",
        accessorFn: (r) => r.provider,
        cell: ({ row }) => (
          <span className="flex flex-col">
            <span className="font-medium text-slate-900">{row.original.provider}</span>
            {row.original.unhealthy && (
              <span className="mt-0.5 inline-flex w-fit items-center gap-1 rounded bg-red-100 px-1.5 text-[11px] font-medium text-red-800">
                <span aria-hidden>▲</span> Unhealthy: {row.original.unhealthy}
              </span>
            )}
          </span>
        ),
      },
      {
        id: "verdict",
        header: "Verdict",
        accessorFn: (r) => (r.verdict.included ? 0 : 1),
        cell: ({ row }) => {
          const v = row.original.verdict;
          return (
            <div className="flex min-w-44 flex-col items-start gap-1">
              <span className={v.included ? "font-medium text-emerald-700" : "text-slate-600"}>{v.label}</span>
              {v.unverified && <span className="text-[11px] text-amber-700">quantization unverified</span>}
              {row.original.probe && <VerdictBadge verdict={row.original.probe.verdict} title={`Probe of ${row.original.probe.finishedAt.slice(0, 10)}: ${row.original.probe.reason}`} />}
              <button
                type="button"
                onClick={() => onToggle(row.original)}
                className="rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-100"
              >
                {toggleLabel(row.original)}
              </button>
            </div>
          );
        },
      },
      { id: "tag", header: "Tag", accessorFn: (r) => r.tag, cell: ({ getValue }) => <code className="text-xs">{getValue<string>()}</code> },
      {
        id: "quantization",
        header: "Quantization",
        accessorFn: (r) => r.known?.quantization ?? r.quantization ?? "",
        cell: ({ row }) => (
          <div className="flex flex-col items-start gap-1">
            <QuantizationBadge reported={row.original.quantization} known={row.original.known} />
            <button
              type="button"
              onClick={() => onRecordQuantization(row.original)}
              className="text-[11px] text-indigo-700 hover:underline"
              aria-label={`Record known quantization for ${row.original.provider}`}
            >
              {row.original.known ? "edit team note" : "record known"}
            </button>
          </div>
        ),
      },
      priceColumn("inputPricePerM", "Input $/M"),
      priceColumn("outputPricePerM", "Output $/M"),
      priceColumn("cacheReadPricePerM", "Cache read $/M"),
      { id: "status", header: "Status", accessorFn: (r) => num(r.status), cell: ({ row }) => row.original.status ?? "—" },
      pctColumn("uptime5m", "Uptime 5m"),
      pctColumn("uptime30m", "Uptime 30m"),
      pctColumn("uptime1d", "Uptime 1d"),
      {
        id: "latencyP50Ms",
        header: "Latency p50",
        accessorFn: (r) => num(r.latencyP50Ms),
        cell: ({ row }) => (row.original.latencyP50Ms === null ? "—" : `${formatInt(Math.round(row.original.latencyP50Ms))} ms`),
      },
      {
        id: "throughputP50",
        header: "Throughput p50",
        accessorFn: (r) => num(r.throughputP50),
        cell: ({ row }) => (row.original.throughputP50 === null ? "—" : `${row.original.throughputP50} tok/s`),
      },
      { id: "contextLength", header: "Context", accessorFn: (r) => num(r.contextLength), cell: ({ row }) => formatInt(row.original.contextLength) },
      {
        id: "maxCompletionTokens",
        header: "Max output",
        accessorFn: (r) => num(r.maxCompletionTokens),
        cell: ({ row }) => formatInt(row.original.maxCompletionTokens),
      },
    ],
    [onToggle, toggleLabel, onRecordQuantization],
  );

  // A stable array: TanStack memoises the sorted rows on it, and a new array every render would
  // re-sort, queue a state reset and render again, forever.
  const sorting: SortingState = useMemo(() => [{ id: sort.column, desc: sort.desc }], [sort.column, sort.desc]);
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting },
    onSortingChange: (updater) => {
      const next = typeof updater === "function" ? updater(sorting) : updater;
      const first = next[0];
      onSortChange(first ? { column: first.id as SortColumn, desc: first.desc } : { column: "outputPricePerM", desc: false });
    },
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (r) => r.tag,
    enableSortingRemoval: false,
    autoResetAll: false,
    defaultColumn: { sortUndefined: "last", sortDescFirst: false },
  });

  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table aria-label="Providers" className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const dir = header.column.getIsSorted();
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={dir === "asc" ? "ascending" : dir === "desc" ? "descending" : "none"}
                    className="px-3 py-2 text-left text-xs font-medium tracking-wide whitespace-nowrap text-slate-500 uppercase"
                  >
                    <button
                      type="button"
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
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              data-included={row.original.verdict.included}
              className={row.original.verdict.included ? "bg-white" : "bg-slate-50/70 text-slate-500"}
            >
              {row.getVisibleCells().map((cell, i) =>
                i === 0 ? (
                  <th key={cell.id} scope="row" className="px-3 py-2 text-left align-top font-normal">
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </th>
                ) : (
                  <td key={cell.id} className="px-3 py-2 align-top whitespace-nowrap tabular-nums">
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function priceColumn(id: "inputPricePerM" | "outputPricePerM" | "cacheReadPricePerM", header: string): ColumnDef<TableRow> {
  return { id, header, accessorFn: (r) => num(r[id]), cell: ({ row }) => formatUsdPerM(row.original[id]) };
}

function pctColumn(id: "uptime5m" | "uptime30m" | "uptime1d", header: string): ColumnDef<TableRow> {
  return { id, header, accessorFn: (r) => num(r[id]), cell: ({ row }) => formatPercent(row.original[id]) };
}
