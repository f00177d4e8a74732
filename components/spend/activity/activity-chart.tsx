"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { colorFor } from "@/components/history/palette";

// OpenRouter's actual spend per day, stacked by provider. Days read before they ended are marked
// with an asterisk on the axis (and said so under the chart). Figures arrive as numbers only to be drawn.

export interface ActivityChartProps {
  days: Array<{ date: string; incomplete: boolean; byProvider: Record<string, number> }>;
  providers: string[];
}

export function ActivityChart({ days, providers }: ActivityChartProps) {
  const data = days.map((d) => ({ label: `${d.date.slice(5)}${d.incomplete ? "*" : ""}`, ...d.byProvider }));
  return (
    <figure aria-label="Actual spend per day and provider" className="h-72 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 10, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="label" fontSize={11} minTickGap={8} />
          <YAxis tickFormatter={(v: number) => `$${v.toFixed(v < 10 ? 2 : 0)}`} fontSize={11} width={52} />
          <Tooltip formatter={(v) => `$${Number(v).toFixed(2)}`} labelFormatter={(l) => `${String(l).replace("*", " (not complete yet)")} UTC`} />
          <Legend verticalAlign="top" height={24} wrapperStyle={{ fontSize: 12 }} />
          {providers.map((p, i) => (
            <Bar key={p} dataKey={p} stackId="spend" fill={colorFor(i)} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
