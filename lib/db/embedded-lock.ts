import "server-only";
import path from "node:path";
import lockfile from "proper-lockfile";

// One process at a time on an embedded database folder. PGlite has no lock of its own: two
// processes that open the same folder both appear to work, and the folder is left corrupt (found
// by trying it). proper-lockfile makes the lock atomically (a directory) and keeps refreshing its
// mtime while the process lives, so a lock whose holder died (killed, crashed, another container
// on a shared volume) goes stale after LOCK_STALE_MS and is taken over, whatever its pid was; it
// is removed when the process exits.

export const LOCK_FILE = "routeboard.lock";
export const LOCK_STALE_MS = 10_000;

/** The code of EmbeddedDatabaseInUse: tell it by this, not instanceof (a bundle may hold two copies of the class). */
export const EMBEDDED_DB_IN_USE = "EMBEDDED_DB_IN_USE";

export class EmbeddedDatabaseInUse extends Error {
  readonly code = EMBEDDED_DB_IN_USE;
  constructor(dir: string) {
    super(
      `The embedded database in ${dir} is in use by another process. Only one process can open it: stop the ` +
        `other one, or set DATABASE_URL to a PostgreSQL server to run several instances. If the other process ` +
        `has just stopped, try again in ${LOCK_STALE_MS / 1000} seconds.`,
    );
    this.name = "EmbeddedDatabaseInUse";
  }
}

/** Takes the folder's lock or throws EmbeddedDatabaseInUse; resolves to the release function. */
export async function lockEmbeddedDir(dir: string): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dir, {
      lockfilePath: path.join(dir, LOCK_FILE),
      realpath: false,
      stale: LOCK_STALE_MS,
      retries: 0,
      // The refresh failed, or another process took the lock (this one was stalled past
      // LOCK_STALE_MS): say so loudly rather than crash mid-write.
      onCompromised: (err) =>
        console.error(`[routeboard] the lock on the embedded database in ${dir} was lost (${err.message}); stop any other process using it`),
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ELOCKED") throw new EmbeddedDatabaseInUse(dir);
    throw err;
  }
}
