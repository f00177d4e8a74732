"use client";

import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { SpendChartProps } from "./spend-chart-props";
import { minuteLabel as time, TICKS, timeAxis } from "./time-axis";

// Spend since the budget start over time, the budget as a horizontal line, and the projection at
// the current burn rate (dashed) up to where it meets the budget. Figures arrive as decimal
// strings and become numbers here only to be drawn.

export type { SpendChartProps };

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
  // A span under a few milliseconds (snapshots at one instant) is padded to an hour around it.
  const lo = allTimes.length ? Math.min(...allTimes) : Date.now();
  const hi = allTimes.length ? Math.max(...allTimes) : lo;
  const xDomain: [number, number] = oneInstant || hi - lo < TICKS ? [lo - 1_800_000, hi + 1_800_000] : [lo, hi];
  const axis = timeAxis(xDomain[0], xDomain[1]);
  return (
    <ResponsiveContainer width="100%" height="100%">
        <LineChart margin={{ top: 10, right: 16, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="t" type="number" scale="time" domain={xDomain} ticks={axis.ticks} tickFormatter={axis.label} fontSize={11} minTickGap={40} />
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
