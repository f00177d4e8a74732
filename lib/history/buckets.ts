// Time ranges and bucket widths the history charts may ask for, and the one function that turns
// the sparse buckets PostgreSQL returns into a full, gap-preserving series. Pure: no database.

export const RANGES = ["24h", "7d", "30d", "90d"] as const;
export type Range = (typeof RANGES)[number];

export const METRICS = ["uptime30m", "inputPrice", "outputPrice", "latencyP50", "throughputP50"] as const;
export type Metric = (typeof METRICS)[number];

/** Bucket widths in seconds: the only values ever spliced into a query (as bound parameters). */
export const BUCKETS = { "5m": 300, "15m": 900, "1h": 3_600, "6h": 21_600, "1d": 86_400 } as const;
export type Bucket = keyof typeof BUCKETS;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const RANGE_MS: Record<Range, number> = { "24h": DAY, "7d": 7 * DAY, "30d": 30 * DAY, "90d": 90 * DAY };

/** The finest bucket each range allows (at most ~300 points per line), and its default. */
const MIN_BUCKET: Record<Range, Bucket> = { "24h": "5m", "7d": "1h", "30d": "6h", "90d": "1d" };

/**
 * The bucket width the server uses for a range. A client may ask for a coarser one from the
 * whitelist; anything finer than the range allows is clamped up, so no URL can ask for
 * 5-minute buckets over 90 days.
 */
export function bucketFor(range: Range, requested?: Bucket): { bucket: Bucket; seconds: number } {
  const min = MIN_BUCKET[range];
  const bucket = requested && BUCKETS[requested] > BUCKETS[min] ? requested : min;
  return { bucket, seconds: BUCKETS[bucket] };
}

/** Buckets are aligned to this instant (UTC midnight), so they never depend on a time zone. */
export const BUCKET_ORIGIN = new Date("2000-01-01T00:00:00Z");

export function alignDown(t: number, bucketMs: number): number {
  const origin = BUCKET_ORIGIN.getTime();
  return origin + Math.floor((t - origin) / bucketMs) * bucketMs;
}

/** The window a range covers ending at `now`: whole buckets from the first to the one holding now. */
export function rangeWindow(range: Range, bucketSeconds: number, now: Date): { from: Date; to: Date } {
  const bucketMs = bucketSeconds * 1000;
  const from = alignDown(now.getTime() - RANGE_MS[range], bucketMs) + bucketMs;
  const to = alignDown(now.getTime(), bucketMs) + bucketMs;
  return { from: new Date(from), to: new Date(to) };
}

export interface BucketPoint<V> {
  /** Start of the bucket, ISO 8601 UTC. */
  t: string;
  value: V | null;
  min: V | null;
  max: V | null;
  /** How many polls are behind the point; 0 where no poll ran (a gap). */
  polls: number;
}

export interface SparseBucket<V> {
  t: Date;
  value: V | null;
  min: V | null;
  max: V | null;
  polls: number;
}

/**
 * Every bucket start in [from, to), in order, with the value PostgreSQL returned for it or a
 * gap (null value, 0 polls) where it returned none. A gap stays a gap: it is never a zero.
 * Buckets outside the window are dropped.
 */
export function fillBuckets<V>(rows: SparseBucket<V>[], from: Date, to: Date, bucketSeconds: number): BucketPoint<V>[] {
  const bucketMs = bucketSeconds * 1000;
  if (!(bucketMs > 0)) throw new Error("bucketSeconds must be positive");
  const byStart = new Map<number, SparseBucket<V>>();
  for (const row of rows) byStart.set(row.t.getTime(), row);
  const points: BucketPoint<V>[] = [];
  for (let t = from.getTime(); t < to.getTime(); t += bucketMs) {
    const row = byStart.get(t);
    points.push(
      row
        ? { t: new Date(t).toISOString(), value: row.value, min: row.min, max: row.max, polls: row.polls }
        : { t: new Date(t).toISOString(), value: null, min: null, max: null, polls: 0 },
    );
  }
  return points;
}
