import type { Range } from "@/lib/history/buckets";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** Axis ticks in UTC, like every other time on the dashboard. */
export function tickLabel(ms: number, range: Range): string {
  const d = new Date(ms);
  if (range === "24h") return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

export function bucketWidth(bucketSeconds: number): string {
  return bucketSeconds >= 86400 ? "1 day" : bucketSeconds >= 3600 ? `${bucketSeconds / 3600} h` : `${bucketSeconds / 60} min`;
}

/** A bucket for the tooltip: its start, and its width when wider than a poll. */
export function bucketLabel(ms: number, bucketSeconds: number): string {
  const d = new Date(ms);
  const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  const width = bucketWidth(bucketSeconds);
  return bucketSeconds >= 86400 ? `${day} UTC (${width})` : `${day} ${time} UTC (${width})`;
}

const HOUR = 3_600_000;
const TICK_STEP: Record<Range, number> = { "24h": 3 * HOUR, "7d": 24 * HOUR, "30d": 5 * 24 * HOUR, "90d": 14 * 24 * HOUR };

/** Round UTC instants for the time axis: every 3 hours over a day, every day over a week, ... */
export function timeTicks(from: number, to: number, range: Range): number[] {
  const step = TICK_STEP[range];
  const ticks: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) ticks.push(t);
  return ticks;
}
