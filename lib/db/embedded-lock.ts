import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

// One process at a time on an embedded database folder. PGlite has no lock of its own: two
// processes that open the same folder both appear to work, and the folder is left corrupt (found
// by trying it). So the folder carries a lock file naming the process that holds it. A lock left
// by a process that is gone (killed, crashed, or a restart that reuses its pid) is taken over.

export const LOCK_FILE = "routeboard.lock";

export class EmbeddedDatabaseInUse extends Error {
  constructor(dir: string, holder: string) {
    super(
      `The embedded database in ${dir} is in use by ${holder}. Only one process can open it: stop the other ` +
        `one, or set DATABASE_URL to a PostgreSQL server to run several instances. If no other Routeboard ` +
        `process is running, delete ${path.join(dir, LOCK_FILE)}.`,
    );
    this.name = "EmbeddedDatabaseInUse";
  }
}

interface Owner {
  pid: number;
  since: string;
}

const held = new Set<string>();
let exitHookInstalled = false;

/** Takes the folder's lock or throws EmbeddedDatabaseInUse; returns the release function. */
export function lockEmbeddedDir(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  if (held.has(file)) throw new EmbeddedDatabaseInUse(dir, "this process already");
  installExitHook();
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, "wx");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = readOwner(file);
      if (owner && owner.pid !== process.pid && isAlive(owner.pid)) {
        throw new EmbeddedDatabaseInUse(dir, `process ${owner.pid} (since ${owner.since})`);
      }
      removeQuietly(file); // stale: its process is gone
      continue;
    }
    try {
      writeSync(fd, JSON.stringify({ pid: process.pid, since: new Date().toISOString() } satisfies Owner));
    } finally {
      closeSync(fd);
    }
    held.add(file);
    return () => {
      if (held.delete(file)) removeQuietly(file);
    };
  }
  throw new EmbeddedDatabaseInUse(dir, "another process that keeps taking its lock");
}

function readOwner(file: string): Owner | null {
  try {
    const owner = JSON.parse(readFileSync(file, "utf8")) as Partial<Owner>;
    return Number.isInteger(owner.pid) ? { pid: owner.pid as number, since: String(owner.since ?? "an unknown time") } : null;
  } catch {
    return null; // unreadable or half-written: treated as stale
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // alive, but someone else's
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}

/** A process that exits without closing its database (Ctrl-C, process.exit) still frees its folders. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const file of held) removeQuietly(file);
    held.clear();
  });
}
