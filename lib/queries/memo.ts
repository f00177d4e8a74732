import "server-only";

// Shared reads for what every viewer of a page asks at once.
//
// - Single flight: a read that finds the same read already running joins it instead of queueing
//   another round trip on the database, so a crowd of viewers costs one query at a time.
// - Reuse for a moment (ttlMs): a settled answer is served again for that long after it settled.
//   Everything this process writes clears every store when it is done (clearMemo: a poll cycle
//   when it ends, every API write through guarded()), so a viewer never sees data older than
//   this process's last completed write; ttlMs only bounds how late another process's writes (a
//   second instance on the same server database) appear.
// - Errors are never kept. A store holds at most its maxEntries answers (and, when it weighs
//   them, maxWeight), the oldest going first, and answers past their time are swept out as new
//   ones come in, so links with ever-new query strings cannot grow it without bound.
//
// The stores live on globalThis: the proxy and the app's routes are bundled apart, and must share
// them.

/** How long a settled shared read (or page render) is reused. */
export const READ_REUSE_MS = 2_000;
export const MAX_ENTRIES = 500;

interface Entry {
  settledAt: number | null;
  ttlMs: number;
  weight: number;
  value: Promise<unknown>;
}

interface Limits {
  maxEntries: number;
  /** With weigh: the most the settled answers may weigh together. */
  maxWeight?: number;
  weigh?(value: unknown): number;
}

export class SharedReads {
  private readonly entries = new Map<string, Entry>();
  private weight = 0;

  constructor(private readonly limits: Limits) {}

  read<T>(key: string, load: () => Promise<T>, ttlMs = 0): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && (hit.settledAt === null || Date.now() - hit.settledAt < ttlMs)) return hit.value as Promise<T>;
    if (hit) this.drop(key, hit);
    const entry: Entry = { settledAt: null, ttlMs, weight: 0, value: load() };
    this.entries.set(key, entry); // last in the Map's order, which is the eviction order
    this.trim();
    entry.value.then(
      (value) => {
        if (this.entries.get(key) !== entry) return; // cleared or evicted meanwhile
        entry.settledAt = Date.now();
        if (ttlMs <= 0) return this.drop(key, entry);
        entry.weight = this.limits.weigh?.(value) ?? 0;
        this.weight += entry.weight;
        this.trim();
      },
      () => {
        if (this.entries.get(key) === entry) this.drop(key, entry);
      },
    );
    return entry.value as Promise<T>;
  }

  /** Drops every answer, and reads still in flight: they may have started before the change. */
  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  private drop(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.weight -= entry.weight;
  }

  private trim(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) {
      if (entry.settledAt !== null && now - entry.settledAt >= entry.ttlMs) this.drop(key, entry);
    }
    const maxWeight = this.limits.maxWeight ?? Infinity;
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.weight <= maxWeight) break;
      this.drop(key, entry);
    }
  }
}

const holder = globalThis as unknown as { __routeboardSharedReads?: Map<string, SharedReads> };
const stores = (holder.__routeboardSharedReads ??= new Map<string, SharedReads>());

/** The process's store of this name, made with these limits the first time it is asked for. */
export function sharedReads(name: string, limits: Limits): SharedReads {
  let store = stores.get(name);
  if (!store) stores.set(name, (store = new SharedReads(limits)));
  return store;
}

const reads = sharedReads("reads", { maxEntries: MAX_ENTRIES });

/** A read shared between the viewers who ask for it at once, and for ttlMs after it settled. */
export function memo<T>(key: string, load: () => Promise<T>, ttlMs = 0): Promise<T> {
  return reads.read(key, load, ttlMs);
}

/** After anything that changes what the pages show (a poll, an edit): every store is emptied. */
export function clearMemo(): void {
  for (const store of stores.values()) store.clear();
}

export function memoSize(): number {
  return reads.size;
}
