"use client";

import type { ReactNode } from "react";
import { formatPercent, formatUsdPerM } from "@/lib/format";
import { VerdictBadge } from "../fidelity/verdict-badge";
import { probeBadgeTitle, RecordKnownButton } from "./record-known-button";
import { QuantizationBadge } from "./quantization-badge";
import type { TableRow } from "./provider-table";

interface Props {
  rows: TableRow[];
  onToggle(row: TableRow): void;
  toggleLabel(row: TableRow): string;
  onRecordQuantization(row: TableRow): void;
  header(row: TableRow): ReactNode;
}

/**
 * The provider comparison on a phone: one card per provider with what decides it (verdict,
 * quantization, prices, uptime) and its actions, in the table's sort order. Shown below the
 * `md` breakpoint, where the table is hidden.
 */
export function ProviderCards({ rows, onToggle, toggleLabel, onRecordQuantization, header }: Props) {
  return (
    <ul aria-label="Providers" className="space-y-2 md:hidden">
      {rows.map((row) => {
        const v = row.verdict;
        return (
          <li
            key={row.tag}
            aria-label={row.provider}
            data-included={v.included}
            className={`rounded-lg border p-3 shadow-sm ${v.included ? "border-slate-200 bg-white" : "border-slate-200 bg-slate-50 text-slate-600"}`}
          >
            <div className="flex items-start justify-between gap-3">
              {header(row)}
              <button
                type="button"
                onClick={() => onToggle(row)}
                className="shrink-0 rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-100"
              >
                {toggleLabel(row)}
              </button>
            </div>
            <p className={`mt-1 text-sm break-words ${v.included ? "font-medium text-emerald-700" : "text-slate-600"}`}>
              {v.label}
              {v.unverified && <span className="ml-1 text-[11px] font-normal text-amber-700">(quantization unverified)</span>}
            </p>
            {row.probe && (
              <p className="mt-1 flex flex-wrap items-center gap-x-2 text-xs text-slate-600">
                <span>Probe:</span>
                <VerdictBadge verdict={row.probe.verdict} title={probeBadgeTitle(row.probe)} />
              </p>
            )}
            <dl className="mt-2 grid grid-cols-3 gap-x-3 gap-y-2 text-sm">
              <div className="col-span-3 flex flex-wrap items-center gap-2">
                <dt className="sr-only">Quantization</dt>
                <dd className="flex flex-wrap items-center gap-2">
                  <QuantizationBadge reported={row.quantization} known={row.known} />
                  <RecordKnownButton row={row} onClick={() => onRecordQuantization(row)} />
                </dd>
              </div>
              <Figure label="Input $/M" value={formatUsdPerM(row.inputPricePerM)} />
              <Figure label="Output $/M" value={formatUsdPerM(row.outputPricePerM)} />
              <Figure label="Cache read $/M" value={formatUsdPerM(row.cacheReadPricePerM)} />
              <Figure label="Uptime 30m" value={formatPercent(row.uptime30m)} />
              <Figure label="Uptime 1d" value={formatPercent(row.uptime1d)} />
              <Figure label="Status" value={row.status === null ? "—" : String(row.status)} />
            </dl>
          </li>
        );
      })}
    </ul>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-[11px] tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}
