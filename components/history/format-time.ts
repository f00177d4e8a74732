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
