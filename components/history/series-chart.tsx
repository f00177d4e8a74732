"use client";

import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Range } from "@/lib/history/buckets";
import type { Series, SeriesAggregate } from "@/lib/history/series";
import { bucketLabel, bucketWidth, tickLabel, timeTicks } from "./format-time";

export interface ChartLine {
  tag: string;
  provider: string;
  color: string;
}

interface Props {
  title: string;
  series: Series;
  range: Range;
  /** The endpoints drawn, in legend order. */
  lines: ChartLine[];
  format: (value: number | string) => string;
  /** Axis labels, when shorter than the tooltip's (the unit is in the title). */
  axisFormat?: (value: number) => string;
  yDomain?: [number | "auto", number | "auto"];
  threshold?: number;
}

type Row = Record<string, number | null>;

/** What a point is, said under the title and in the tooltip. */
const AGGREGATE_NOTE: Record<SeriesAggregate, { caption: string; tooltip: string }> = {
  last: {
    caption: "Each point: the price in effect at the end of its bucket (its last poll). Tooltip: the min–max within it.",
    tooltip: "price in effect at the end of the bucket; min–max within it",
  },
  mean: {
    caption: "Each point: the mean of its bucket’s polls. Tooltip: the min–max within it.",
    tooltip: "mean of the bucket’s polls; min–max within it",
  },
};

/**
 * One metric over time, a line per visible endpoint. Buckets without a poll are null and the
 * line breaks there (connectNulls off): a gap is never drawn as a zero or bridged over.
 */
export function SeriesChart({ title, series, range, lines, format, axisFormat, yDomain, threshold }: Props) {
  const byTag = new Map(series.endpoints.map((e) => [e.tag, e]));
  const drawn = lines.filter((l) => byTag.has(l.tag));
  const first = series.endpoints[0]?.points ?? [];
  const rows: Row[] = first.map((p, i) => {
    const row: Row = { t: Date.parse(p.t) };
    for (const l of drawn) {
      const value = byTag.get(l.tag)?.points[i]?.value;
      row[l.tag] = value === null || value === undefined ? null : Number(value);
    }
    return row;
  });
  const from = Date.parse(series.from);
  // Up to the end of the last bucket, so the newest point is drawn whole inside the plot.
  const to = Date.parse(series.to);
  const pointsWithData = (tag: string) => byTag.get(tag)?.points.filter((p) => p.value !== null).length ?? 0;

  return (
    <figure aria-label={title} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <figcaption className="mb-2 flex items-baseline justify-between gap-2">
        <span className="text-sm font-medium text-slate-800">{title}</span>
        <span className="text-xs text-slate-500">
          {drawn.length} of {series.endpoints.length} endpoints · {bucketWidth(series.bucketSeconds)} buckets
        </span>
      </figcaption>
      <p className="-mt-1 mb-2 text-xs text-slate-500">{AGGREGATE_NOTE[series.aggregate].caption}</p>
      {drawn.length === 0 ? (
        <p className="flex h-56 items-center justify-center text-sm text-slate-500">
          {series.endpoints.length ? "Every endpoint is switched off in the legend." : "No polls in this range."}
        </p>
      ) : (
        <div className="h-56">
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={rows} margin={{ top: 8, right: threshold === undefined ? 12 : THRESHOLD_MARGIN, bottom: 0, left: 0 }} accessibilityLayer={false}>
              <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" />
              <XAxis
                dataKey="t"
                type="number"
                scale="time"
                domain={[from, to]}
                allowDataOverflow
                ticks={timeTicks(from, to, range)}
                tickFormatter={(v: number) => tickLabel(v, range)}
                tick={{ fontSize: 11, fill: "#64748b" }}
                minTickGap={16}
              />
              <YAxis
                domain={yDomain ?? ["auto", "auto"]}
                tickFormatter={(v: number) => (axisFormat ?? format)(v)}
                tick={{ fontSize: 11, fill: "#64748b" }}
                width={64}
              />
              {threshold !== undefined && (
                <ReferenceLine
                  y={threshold}
                  stroke="#dc2626"
                  strokeDasharray="6 4"
                  label={(props: { viewBox?: { x?: number; y?: number; width?: number } }) => <ThresholdLabel viewBox={props.viewBox} threshold={threshold} />}
                />
              )}
              <Tooltip
                content={({ active, label, activeIndex }) => {
                  // The hovered row: by its index where Recharts gives one, else by the x value.
                  const index = activeIndex === undefined || activeIndex === null ? NaN : Number(activeIndex);
                  const t = Number.isInteger(index) && rows[index] ? rows[index].t : Number(label);
                  return active && typeof t === "number" && Number.isFinite(t) ? (
                    <PointTooltip t={t} series={series} lines={drawn} format={format} />
                  ) : null;
                }}
              />
              {drawn.map((l) => (
                <Line
                  key={l.tag}
                  dataKey={l.tag}
                  name={l.provider}
                  type="linear"
                  stroke={l.color}
                  strokeWidth={1.75}
                  connectNulls={false}
                  dot={pointsWithData(l.tag) <= 30 ? { r: 2.5, strokeWidth: 0, fill: l.color } : false}
                  activeDot={{ r: 3.5 }}
                  isAnimationActive={false}
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  );
}

/** Room right of the plot for the threshold's label, so it is never drawn over the lines. */
const THRESHOLD_MARGIN = 64;

/** The threshold's label, in the margin right of the plot at the line's height: "threshold" over "95%". */
function ThresholdLabel({ viewBox, threshold }: { viewBox?: { x?: number; y?: number; width?: number }; threshold: number }) {
  if (viewBox?.x === undefined || viewBox.y === undefined || viewBox.width === undefined) return <g />;
  const x = viewBox.x + viewBox.width + 6;
  return (
    <text x={x} y={viewBox.y} fill="#b91c1c" fontSize={11} data-testid="threshold-label">
      <tspan x={x} dy="-0.2em">threshold </tspan>
      <tspan x={x} dy="1.2em">{threshold}%</tspan>
    </text>
  );
}

function PointTooltip({ t, series, lines, format }: { t: number; series: Series; lines: ChartLine[]; format: (v: number | string) => string }) {
  const iso = new Date(t).toISOString();
  const rows = lines.map((l) => {
    const point = series.endpoints.find((e) => e.tag === l.tag)?.points.find((p) => p.t === iso);
    return { ...l, value: point?.value ?? null, min: point?.min ?? null, max: point?.max ?? null, polls: point?.polls ?? 0 };
  });
  return (
    <div role="tooltip" className="rounded-md border border-slate-200 bg-white/95 px-3 py-2 text-xs shadow-md">
      <p className="font-medium text-slate-700">{bucketLabel(t, series.bucketSeconds)}</p>
      <p className="mb-1 text-[11px] text-slate-500">{AGGREGATE_NOTE[series.aggregate].tooltip}</p>
      <table>
        <tbody>
          {rows.map((r) => (
            <tr key={r.tag}>
              <td className="pr-2">
                <span aria-hidden className="mr-1 inline-block h-2 w-2 rounded-full" style={{ background: r.color }} />
                {r.provider}
              </td>
              <td className="pr-2 text-right tabular-nums">{r.value === null ? "no data" : format(r.value)}</td>
              <td className="pr-2 text-right text-slate-500 tabular-nums">
                {r.min !== null && r.max !== null && String(r.min) !== String(r.max) ? `min–max ${format(r.min)}–${format(r.max)}` : ""}
              </td>
              <td className="text-right text-slate-500 tabular-nums">
                {r.polls} {r.polls === 1 ? "poll" : "polls"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
