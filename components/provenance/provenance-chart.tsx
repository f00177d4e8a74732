"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

// Output tokens per UTC day, stacked by provenance class. Figures arrive as decimal strings and
// become numbers here only to be drawn.

export interface ProvenanceChartProps {
  days: Array<{ day: string; class: string; outputTokens: string }>;
}

export const CLASS_COLOURS: Record<string, string> = { trusted: "#059669", unverified: "#64748b", suspect: "#d97706", excluded: "#dc2626", awaiting: "#a5b4fc" };
const CLASSES = ["trusted", "unverified", "suspect", "excluded", "awaiting"] as const;

export function ProvenanceChart({ days }: ProvenanceChartProps) {
  const byDay = new Map<string, Record<string, number | string>>();
  for (const d of days) {
    const row = byDay.get(d.day) ?? { day: d.day };
    row[d.class] = Number(d.outputTokens);
    byDay.set(d.day, row);
  }
  const data = [...byDay.values()];
  const compact = (v: number) => (v >= 1e6 ? `${(v / 1e6).toFixed(1)}M` : v >= 1e3 ? `${(v / 1e3).toFixed(1)}k` : String(v));
  return (
    <figure aria-label="Output tokens per day by class" className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 10, right: 16, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
          <XAxis dataKey="day" fontSize={11} />
          <YAxis tickFormatter={compact} fontSize={11} width={56} />
          <Tooltip formatter={(v) => `${Number(v).toLocaleString("en-US")} output tokens`} />
          <Legend verticalAlign="top" height={24} wrapperStyle={{ fontSize: 12 }} />
          {CLASSES.map((c) => (
            <Bar key={c} dataKey={c} name={c} stackId="class" maxBarSize={64} fill={CLASS_COLOURS[c]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
