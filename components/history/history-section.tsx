"use client";

import { useQuery } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import { useState } from "react";
import type { Metric, Range } from "@/lib/history/buckets";
import type { Series } from "@/lib/history/series";
import { fromWire, type SeriesWire } from "@/lib/history/series-wire";
import { comparisonParsers } from "@/lib/view-state/comparison";
import { ChangeLog } from "./change-log";
import { EndpointLegend, type LegendEntry } from "./endpoint-legend";
import { useSnapshotVersion } from "../models/live-snapshot";
import { apiFetch, modelApiPath } from "../ui/api-fetch";
import { colorFor } from "./palette";
import { RangePicker } from "./range-picker";
import { SeriesChart, type ChartLine } from "./series-chart";
import { uptimeDomain } from "./uptime-axis";

export interface HistorySectionProps {
  modelId: string;
  /** Endpoints drawn by default (the comparison rules' included set); others start switched off. Default: all. */
  includedTags?: string[];
  /** Uptime alert threshold in percent, drawn on the uptime chart. */
  uptimeThreshold?: number;
  /** The model's providers now (the change log's provider filter lists them all, with or without changes). */
  providers?: string[];
}

function useSeries(modelId: string, metric: Metric, range: Range) {
  // Keyed by the snapshot the page shows: a new poll refetches every chart with the table.
  const snapshot = useSnapshotVersion();
  return useQuery({
    queryKey: ["series", modelId, metric, range, snapshot],
    queryFn: async () => fromWire(await apiFetch<SeriesWire>(`${modelApiPath(modelId)}/series?metric=${metric}&range=${range}`)),
    placeholderData: (previous) => previous,
  });
}

/** Every value of the lines drawn, for the axis to fit. */
const drawnValues = (s: Series, lines: ChartLine[]) =>
  s.endpoints.filter((e) => lines.some((l) => l.tag === e.tag)).flatMap((e) => e.points.map((p) => (p.value === null ? null : Number(p.value))));
const hasValues = (s: Series | undefined) => Boolean(s?.endpoints.some((e) => e.points.some((p) => p.value !== null)));
const percent = (v: number | string) => `${Number(v).toFixed(1)}%`;
const usd = (v: number | string) => (typeof v === "string" ? `$${v}` : `$${v.toFixed(2)}`);
const ms = (v: number | string) => `${Math.round(Number(v)).toLocaleString("en-US")} ms`;
const plain = (v: number) => Math.round(v).toLocaleString("en-US");
const tps = (v: number | string) => `${Number(v).toFixed(0)} tok/s`;

/** Uptime, price, latency and throughput over time for every endpoint, and the change log. */
export function HistorySection({ modelId, includedTags, uptimeThreshold = 95, providers = [] }: HistorySectionProps) {
  const [range, setRange] = useQueryState("hr", comparisonParsers.hr.withOptions({ history: "replace", shallow: true }));
  const [toggled, setToggled] = useState<Record<string, boolean>>({});
  const uptime = useSeries(modelId, "uptime30m", range);
  const input = useSeries(modelId, "inputPrice", range);
  const output = useSeries(modelId, "outputPrice", range);
  const latency = useSeries(modelId, "latencyP50", range);
  const throughput = useSeries(modelId, "throughputP50", range);

  // Every endpoint seen in any series of the range, in tag order, keeps one colour everywhere.
  const known = new Map<string, string>();
  for (const s of [uptime.data, input.data, output.data, latency.data, throughput.data]) {
    for (const e of s?.endpoints ?? []) if (!known.has(e.tag)) known.set(e.tag, e.provider);
  }
  const entries: LegendEntry[] = [...known.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tag, provider], i) => ({
      tag,
      provider,
      color: colorFor(i),
      visible: toggled[tag] ?? (includedTags ? includedTags.includes(tag) : true),
    }));
  const lines: ChartLine[] = entries.filter((e) => e.visible);
  const toggle = (tag: string) =>
    setToggled((t) => ({ ...t, [tag]: !(entries.find((e) => e.tag === tag)?.visible ?? true) }));

  return (
    <section aria-labelledby="history-heading" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="history-heading" className="text-lg font-semibold tracking-tight">History</h2>
          <p className="text-sm text-slate-600">
            How each provider behaved over time. Gaps are periods without a poll. Times in UTC.
          </p>
        </div>
        <RangePicker value={range} onChange={setRange} />
      </div>
      {entries.length > 0 && <EndpointLegend entries={entries} onToggle={toggle} />}
      {uptime.isError && (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700">
          Could not load the history: {uptime.error.message}
        </p>
      )}
      {uptime.isPending ? (
        <p className="rounded-lg border border-slate-200 bg-white p-8 text-center text-sm text-slate-500">Loading history…</p>
      ) : (
        uptime.data && (
          <SeriesChart
            title="Uptime, last 30 minutes (%)"
            series={uptime.data}
            range={range}
            lines={lines}
            format={percent}
            yDomain={uptimeDomain(drawnValues(uptime.data, lines), uptimeThreshold)}
            threshold={uptimeThreshold}
          />
        )
      )}
      <div className="grid gap-4 lg:grid-cols-2">
        {input.data && hasValues(input.data) && (
          <SeriesChart title="Input price ($ per million tokens)" series={input.data} range={range} lines={lines} format={usd} yDomain={[0, "auto"]} />
        )}
        {output.data && hasValues(output.data) && (
          <SeriesChart title="Output price ($ per million tokens)" series={output.data} range={range} lines={lines} format={usd} yDomain={[0, "auto"]} />
        )}
        {latency.data && hasValues(latency.data) && (
          <SeriesChart title="Latency p50 (ms)" series={latency.data} range={range} lines={lines} format={ms} axisFormat={plain} yDomain={[0, "auto"]} />
        )}
        {throughput.data && hasValues(throughput.data) && (
          <SeriesChart title="Throughput p50 (tokens per second)" series={throughput.data} range={range} lines={lines} format={tps} axisFormat={plain} yDomain={[0, "auto"]} />
        )}
      </div>
      <ChangeLog modelId={modelId} currentProviders={providers} />
    </section>
  );
}
