import type { SpendChartProps } from "./spend-chart-props";

// The spend chart as plain SVG, drawn without a chart library: what /spend shows on its first load
// (recharts is most of a page's JavaScript, and this chart sits at the top of the page). The same
// axes, lines and budget label as the interactive chart (spend-chart.tsx), which replaces it the
// first time a pointer comes over it (lazy-spend-chart.tsx) to add its tooltips.

const H = 288;
const PAD = { top: 34, right: 16, bottom: 26, left: 56 };

const time = (ms: number) => new Date(ms).toISOString().slice(5, 16).replace("T", " ");
const timeTick = (spanMs: number) => (ms: number) => (spanMs < 600_000 ? new Date(ms).toISOString().slice(11, 19) : time(ms));

/** `width`: the box's width in CSS pixels, so the drawing fills it as the interactive chart does (text keeps its size). */
export function SpendSketch({ points, budgetUsd, projection, width = 640 }: SpendChartProps & { width?: number }) {
  const W = Math.max(320, Math.round(width));
  const spent = points.map((p) => ({ t: Date.parse(p.at), v: Number(p.spent) }));
  const projected = projection ? [projection.from, projection.to].map((p) => ({ t: Date.parse(p.at), v: Number(p.spent) })) : [];
  const budget = Number(budgetUsd);
  const maxY = Math.max(1, budget, ...spent.map((p) => p.v)) * 1.1;
  const money = (v: number) => `$${v.toFixed(maxY < 10 ? 2 : 0)}`;
  const times = [...spent, ...projected].map((p) => p.t);
  let [t0, t1] = times.length ? [Math.min(...times), Math.max(...times)] : [0, 1];
  if (t0 === t1) [t0, t1] = [t0 - 1_800_000, t1 + 1_800_000]; // one instant: pad the axis
  const x = (t: number) => PAD.left + ((t - t0) / (t1 - t0)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - v / maxY) * (H - PAD.top - PAD.bottom);
  const line = (ps: { t: number; v: number }[]) => ps.map((p, i) => `${i ? "L" : "M"}${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join(" ");
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * maxY);
  const tick = timeTick(t1 - t0);
  const xTicks = [t0, (t0 + t1) / 2, t1];
  const legendX = W / 2 - (projected.length > 0 ? 150 : 60);
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="h-full w-full" role="img" aria-label="Spend over time (preview; point at it for details)">
      <g fontSize={11} fill="#64748b">
        {yTicks.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} stroke="#e2e8f0" strokeDasharray="3 3" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end">{money(v)}</text>
          </g>
        ))}
        {xTicks.map((t, i) => (
          <text key={i} x={x(t)} y={H - 8} textAnchor={i === 0 ? "start" : i === 2 ? "end" : "middle"}>{tick(t)}</text>
        ))}
      </g>
      <line x1={PAD.left} x2={W - PAD.right} y1={y(budget)} y2={y(budget)} stroke="#dc2626" strokeDasharray="6 3" />
      <text x={PAD.left + 4} y={y(budget) - 4} fontSize={11} fill="#b91c1c">Budget ${budgetUsd}</text>
      {spent.length > 0 && <path d={line(spent)} fill="none" stroke="#4f46e5" strokeWidth={2} />}
      {spent.length === 1 && <circle cx={x(spent[0].t)} cy={y(spent[0].v)} r={3} fill="#4f46e5" />}
      {projected.length > 0 && <path d={line(projected)} fill="none" stroke="#f59e0b" strokeWidth={2} strokeDasharray="4 4" />}
      <g fontSize={12} fill="#334155">
        <line x1={legendX} x2={legendX + 16} y1={12} y2={12} stroke="#4f46e5" strokeWidth={2} />
        <text x={legendX + 20} y={16}>Spent since start</text>
        {projected.length > 0 && (
          <>
            <line x1={W / 2 + 10} x2={W / 2 + 26} y1={12} y2={12} stroke="#f59e0b" strokeWidth={2} strokeDasharray="4 4" />
            <text x={W / 2 + 30} y={16}>At the current burn rate</text>
          </>
        )}
      </g>
    </svg>
  );
}
