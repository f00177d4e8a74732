import "server-only";

// Shared reads for what every viewer of a page asks at once.
//
// - Single flight: a read that finds the same read already running joins it instead of queueing
//   another round trip on the database, so a crowd of viewers costs one query at a time.
// - Reuse for a moment (ttlMs): a settled answer is served again for that long after it settled.
//   Everything this process writes clears the memo when it is done (clearMemo: a poll cycle when
//   it ends, every API write through guarded()), so a viewer never sees data older than this
//   process's last completed write; ttlMs only bounds how late another process's writes (a second
//   instance on the same server database) appear.
// - Errors are never kept, and the memo holds at most MAX_ENTRIES answers (the oldest go first),
//   so links with ever-new query strings cannot grow it without bound.

interface Entry {
  settledAt: number | null;
  value: Promise<unknown>;
}

export const MAX_ENTRIES = 500;

/** How long a settled shared read (or page render) is reused. */
export const READ_REUSE_MS = 2_000;

const holder = globalThis as unknown as { __routeboardMemo?: Map<string, Entry> };
const entries = (holder.__routeboardMemo ??= new Map<string, Entry>());

export function memo<T>(key: string, load: () => Promise<T>, ttlMs = 0): Promise<T> {
  const hit = entries.get(key);
  if (hit && (hit.settledAt === null || Date.now() - hit.settledAt < ttlMs)) return hit.value as Promise<T>;
  const entry: Entry = { settledAt: null, value: load() };
  entries.delete(key); // re-inserted last: the Map's order is the eviction order
  entries.set(key, entry);
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
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

/**
 * After anything that changes what the pages show (a poll, an edit). Reads still in flight are
 * dropped too: they may have started before the change, and nobody joins them any more.
 */
export function clearMemo(): void {
  entries.clear();
}

export function memoSize(): number {
  return entries.size;
}
