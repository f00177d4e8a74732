// Which data a model page shows, as one value its parts can share: the snapshot (the last
// successful poll), the failure after it, and the probe verdicts (the latest completed probe run).
// A model page's server-rendered parts (table, reasons, "N of M included", routing export,
// calculator) and its client fetches (charts, change log) key on it, so a new poll or a finished
// probe moves them together. Pure: used by the server, the latest-poll API and the page.

export interface SnapshotIdentity {
  /** When the snapshot shown was taken (the last successful poll), or null before the first. */
  polledAt: string | null;
  /** When the latest poll failed, when it did (after the snapshot shown). */
  failedAt: string | null;
  /** When the model's latest completed probe run finished (its verdicts are shown), or null. */
  verdictsAt: string | null;
}

/** A string naming what the page shows, for react-query keys. */
export function snapshotVersion({ polledAt, failedAt, verdictsAt }: SnapshotIdentity): string {
  return `${polledAt ?? "none"}|${failedAt ?? "ok"}|${verdictsAt ?? "unprobed"}`;
}

const time = (iso: string | null) => (iso ? Date.parse(iso) : 0);

/**
 * Whether `candidate` comes after `shown`: a later poll, a later failure, or later verdicts.
 * Compared by time, part by part, never just by difference, so an answer from a reader a moment
 * behind (another instance) never sends a page back.
 */
export function isNewerSnapshot(candidate: SnapshotIdentity, shown: SnapshotIdentity): boolean {
  return (
    time(candidate.polledAt) > time(shown.polledAt) ||
    time(candidate.failedAt) > time(shown.failedAt) ||
    time(candidate.verdictsAt) > time(shown.verdictsAt)
  );
}
