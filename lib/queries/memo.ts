import "server-only";

// Single flight for the read queries that every viewer of a page asks at once: a read that finds
// the same read already running joins it instead of queueing another round trip on the database.
// A crowd of viewers thus costs one query at a time, and nobody sees data older than the moment
// their request arrived (the joined read started at most one query's time earlier). A short reuse
// window can be asked for with ttlMs. Errors are never kept.

interface Entry {
  settledAt: number | null;
  value: Promise<unknown>;
}

const holder = globalThis as unknown as { __routeboardMemo?: Map<string, Entry> };
const entries = (holder.__routeboardMemo ??= new Map<string, Entry>());

export function memo<T>(key: string, load: () => Promise<T>, ttlMs = 0): Promise<T> {
  const hit = entries.get(key);
  if (hit && (hit.settledAt === null || Date.now() - hit.settledAt < ttlMs)) return hit.value as Promise<T>;
  const entry: Entry = { settledAt: null, value: load() };
  entries.set(key, entry);
  entry.value.then(
    () => {
      entry.settledAt = Date.now();
      if (ttlMs <= 0 && entries.get(key) === entry) entries.delete(key);
    },
    () => {
      if (entries.get(key) === entry) entries.delete(key);
    },
  );
  return entry.value as Promise<T>;
}

/** After anything that changes what the pages show (a poll, an edit): no read in flight is joined. */
export function clearMemo(): void {
  entries.clear();
}
