"use client";

import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { SpendChartProps } from "./spend-chart-props";

// Spend since the budget start over time, the budget as a horizontal line, and the projection at
// the current burn rate (dashed) up to where it meets the budget. Figures arrive as decimal
// strings and become numbers here only to be drawn.

export type { SpendChartProps };

const time = (ms: number) => new Date(ms).toISOString().slice(5, 16).replace("T", " ");
/** Tick labels fine enough to differ: snapshots minutes apart would all read "12-01 20:33". */
const timeTick = (spanMs: number) => (ms: number) =>
  spanMs < 600_000 ? new Date(ms).toISOString().slice(11, 19) : time(ms);

export function SpendChart({ points, budgetUsd, projection }: SpendChartProps) {
  const spent = points.map((p) => ({ t: Date.parse(p.at), spent: Number(p.spent) }));
  const projected = projection
    ? [projection.from, projection.to].map((p) => ({ t: Date.parse(p.at), projected: Number(p.spent) }))
    : [];
  const budget = Number(budgetUsd);
  // A $0 budget with nothing spent would make the axis run from $0 to $0, every tick "$0": the
  // axis always spans at least $1, and shows cents when it spans only a few dollars.
  const maxY = Math.max(1, budget, ...spent.map((p) => p.spent)) * 1.1;
  const money = (v: number) => `$${v.toFixed(maxY < 10 ? 2 : 0)}`;
  // One snapshot (or several at the same instant) gives a time axis of zero width: pad it.
  const times = spent.map((p) => p.t);
  const oneInstant = times.length > 0 && Math.min(...times) === Math.max(...times);
  const allTimes = [...times, ...projected.map((p) => p.t)];
  const xSpan = allTimes.length ? Math.max(...allTimes) - Math.min(...allTimes) : 0;
  const xDomain: [number | string, number | string] = oneInstant ? [times[0] - 1_800_000, times[0] + 1_800_000] : ["dataMin", "dataMax"];
  return (
    <ResponsiveContainer width="100%" height="100%">
        <LineChart margin={{ top: 10, right: 16, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="t" type="number" scale="time" domain={xDomain} tickFormatter={timeTick(xSpan)} fontSize={11} minTickGap={40} />
          <YAxis domain={[0, maxY]} tickFormatter={money} fontSize={11} width={56} />
          <Tooltip
            labelFormatter={(v) => `${time(Number(v))} UTC`}
            formatter={(v) => `$${Number(v).toFixed(2)}`}
          />
          <Legend verticalAlign="top" height={24} wrapperStyle={{ fontSize: 12 }} />
          <ReferenceLine y={budget} stroke="#dc2626" strokeDasharray="6 3" label={{ value: `Budget $${budgetUsd}`, position: "insideBottomLeft", fontSize: 11, fill: "#b91c1c" }} />
          <Line data={spent} dataKey="spent" name="Spent since start" stroke="#4f46e5" strokeWidth={2} dot={spent.length < 40} isAnimationActive={false} />
          {projected.length > 0 && (
            <Line data={projected} dataKey="projected" name="At the current burn rate" stroke="#f59e0b" strokeDasharray="4 4" dot={false} isAnimationActive={false} />
          )}
        </LineChart>
    </ResponsiveContainer>
  );
}
