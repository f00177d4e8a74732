// Which snapshot a page shows, as one value its parts can share. A model page's server-rendered
// parts (table, routing export, calculator) and its client fetches (charts, change log) key on it,
// so a new poll moves them together. Pure: used by the server, the latest-poll API and the page.

export interface SnapshotIdentity {
  /** When the snapshot shown was taken (the last successful poll), or null before the first. */
  polledAt: string | null;
  /** When the latest poll failed, when it did (after the snapshot shown). */
  failedAt: string | null;
}

/** A string naming the snapshot, for react-query keys. */
export function snapshotVersion({ polledAt, failedAt }: SnapshotIdentity): string {
  return `${polledAt ?? "none"}|${failedAt ?? "ok"}`;
}

const latest = ({ polledAt, failedAt }: SnapshotIdentity) =>
  Math.max(polledAt ? Date.parse(polledAt) : 0, failedAt ? Date.parse(failedAt) : 0);

/**
 * Whether `candidate` comes after `shown`. Compared by time, never just by difference, so an
 * answer from a reader a moment behind (another instance) never sends a page back.
 */
export function isNewerSnapshot(candidate: SnapshotIdentity, shown: SnapshotIdentity): boolean {
  return latest(candidate) > latest(shown);
}
