import { fillBuckets } from "./buckets";
import type { EndpointSeries, Series, SeriesValue } from "./series";

// The series API's wire form. A series lists every bucket of its window, most of them gaps when
// polls are sparse, each as an object: about 250 KB for a day of 5-minute buckets over 11
// endpoints. On the wire each endpoint lists only the buckets that hold a poll, as tuples, and the
// reader rebuilds the rest (gaps stay gaps: value null, 0 polls). Pure: used by the route and by
// the page's scripts.

/** [bucket index counted from `from`, value, min, max, polls]. */
export type WirePoint = [number, SeriesValue | null, SeriesValue | null, SeriesValue | null, number];

export interface SeriesWire extends Omit<Series, "endpoints"> {
  endpoints: Array<{ tag: string; provider: string; points: WirePoint[] }>;
}

export function toWire(series: Series): SeriesWire {
  const from = Date.parse(series.from);
  const bucketMs = series.bucketSeconds * 1000;
  return {
    ...series,
    endpoints: series.endpoints.map(({ tag, provider, points }) => ({
      tag,
      provider,
      points: points
        .filter((p) => p.polls > 0)
        .map((p): WirePoint => [Math.round((Date.parse(p.t) - from) / bucketMs), p.value, p.min, p.max, p.polls]),
    })),
  };
}

export function fromWire(wire: SeriesWire): Series {
  const from = new Date(wire.from);
  const to = new Date(wire.to);
  const bucketMs = wire.bucketSeconds * 1000;
  const endpoints: EndpointSeries[] = wire.endpoints.map(({ tag, provider, points }) => ({
    tag,
    provider,
    points: fillBuckets<SeriesValue>(
      points.map(([i, value, min, max, polls]) => ({ t: new Date(from.getTime() + i * bucketMs), value, min, max, polls })),
      from,
      to,
      wire.bucketSeconds,
    ),
  }));
  return { ...wire, endpoints };
}
