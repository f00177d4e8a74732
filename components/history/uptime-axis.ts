// The uptime chart's vertical axis. A 0–100% axis squeezes every provider into the top few pixels
// (uptimes sit between 95 and 100), so the axis is zoomed to the data: from a little under the
// lowest value drawn, or under the threshold when that is lower (the threshold line stays in the
// plot), up to 100%. The bottom is rounded down to a whole step so the ticks read cleanly.

/** [bottom, 100] in percent, for the values drawn (nulls and NaN ignored) and the threshold. */
export function uptimeDomain(values: Array<number | null | undefined>, threshold?: number): [number, number] {
  const top = 100;
  let low = threshold ?? top;
  for (const v of values) if (typeof v === "number" && Number.isFinite(v) && v < low) low = v;
  low = Math.max(0, Math.min(low, top));
  const span = top - low;
  // Room under the lowest point, so it is not drawn on the axis line.
  const pad = Math.max(span * 0.1, 0.5);
  const step = span + pad > 20 ? 5 : span + pad > 5 ? 1 : 0.5;
  return [Math.max(0, Math.floor((low - pad) / step) * step), top];
}
