// The spend chart's time axis, apart from the chart so that it can be tested without drawing.

/** "12-01 20:33": a time to the minute, UTC. */
export const minuteLabel = (ms: number) => new Date(ms).toISOString().slice(5, 16).replace("T", " ");

export const TICKS = 5;

/**
 * The time axis's ticks, evenly spaced over the domain, and labels fine enough that no two read
 * alike: truncated to the minute when ticks are a minute or more apart ("12-01 20:33"), else to the
 * second, else to the millisecond. (Left to itself the axis put ticks at the data, and two
 * snapshots in the same second read "03:59:03 03:59:03".)
 */
export function timeAxis(lo: number, hi: number): { ticks: number[]; label: (ms: number) => string } {
  const step = (hi - lo) / (TICKS - 1);
  const ticks = Array.from({ length: TICKS }, (_, i) => Math.round(lo + i * step));
  const iso = (ms: number) => new Date(ms).toISOString();
  const label = step >= 60_000 ? minuteLabel : step >= 1_000 ? (ms: number) => iso(ms).slice(11, 19) : (ms: number) => iso(ms).slice(11, 23);
  return { ticks, label };
}

