import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EmbeddedDatabaseInUse, LOCK_FILE, LOCK_STALE_MS } from "@/lib/db/embedded-lock";
import { openDatabase, type OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { seedWatchedModels } from "@/lib/watched-models";
import { injectFault, resetReplica, startReplica, type Replica } from "@/replica/server";
import { expectKilledFirstCycleLeftNothing } from "../helpers/killed-cycle";
import { spawnPoller, until, type ChildResult } from "../helpers/poller-child";

// Faults of our own on the embedded engine, the default: a poller process killed mid-cycle, and a
// second process on the same folder. PGlite has no lock of its own (two processes on one folder
// corrupt it), so the second process must be refused before it touches anything.

const KIMI = "moonshotai/kimi-k2.5";

describe("faults of our own on the embedded database", () => {
  let dir: string;
  let replica: Replica;
  const children: ChildProcess[] = [];
  const opened: OpenedDb[] = [];
  const open = async () => {
    const db = await openDatabase({ embeddedDir: dir });
    opened.push(db);
    return db;
  };

  /** Opens the folder as a restarted server would: retrying while the dead holder's lock is fresh. */
  const openOnceStale = async (): Promise<OpenedDb> => {
    const deadline = Date.now() + LOCK_STALE_MS * 4;
    for (;;) {
      try {
        return await open();
      } catch (err) {
        if (!(err instanceof EmbeddedDatabaseInUse) || Date.now() > deadline) throw err;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "routeboard-embedded-faults-"));
    replica = await startReplica();
    const first = await openDatabase({ embeddedDir: dir });
    await seedWatchedModels(first.db, [KIMI]);
    await first.close();
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
    for (const db of opened.splice(0)) await db.close().catch(() => undefined);
    await resetReplica(replica.url);
    await replica.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a second process on the same folder is refused with a clear message, and the first polls once", { timeout: 45_000 }, async () => {
    const env = { CHILD_EMBEDDED_DIR: dir, CHILD_OPENROUTER_URL: replica.baseUrl, CHILD_WAIT: "1" };
    const holder = spawnPoller(env);
    children.push(holder.proc);
    await until("the first poller to open the folder", () => holder.lines.includes("ready"), 60_000);

    const second = spawnPoller(env);
    children.push(second.proc);
    expect(await second.exited).toBe(3);
    const refusal = second.lines.find((l) => l.startsWith("refused "));
    expect(refusal).toContain(`The embedded database in ${dir} is in use by another process`);
    expect(refusal).toContain("set DATABASE_URL to a PostgreSQL server");
    // In this process too, and nothing it holds is touched.
    await expect(openDatabase({ embeddedDir: dir })).rejects.toBeInstanceOf(EmbeddedDatabaseInUse);

    holder.proc.stdin?.write("go\n");
    expect(await holder.exited).toBe(0);
    const result = JSON.parse(holder.lines.find((l) => l.startsWith("result "))!.slice(7)) as ChildResult;
    expect(result.models).toEqual([expect.objectContaining({ id: KIMI, ok: true, endpoints: 11 })]);

    const after = await open(); // the lock went with the process that held it
    expect(await after.db.modelPoll.count({ where: { ok: true } })).toBe(1);
    expect(await after.db.endpointSample.count()).toBe(11);
  });

  it("a poller killed mid-cycle leaves no half snapshot: its lock goes stale and is taken over, and the next cycle succeeds once its lease expires", { timeout: 50_000 }, async () => {
    await injectFault(replica.url, { kind: "hang", times: 5 });
    const child = spawnPoller({
      CHILD_EMBEDDED_DIR: dir,
      CHILD_OPENROUTER_URL: replica.baseUrl,
      CHILD_LEASE_SECONDS: "3",
      CHILD_TIMEOUT_MS: "60000",
    });
    children.push(child.proc);
    await until("the child to reach OpenRouter", () => replica.state.requests.length > 0, 60_000);
    child.proc.kill("SIGKILL");
    await child.exited;
    expect(existsSync(path.join(dir, LOCK_FILE)), "the killed process leaves its lock behind").toBe(true);
    // Refused while the lock is fresh (the holder might still be alive), taken over once stale.
    await expect(openDatabase({ embeddedDir: dir })).rejects.toBeInstanceOf(EmbeddedDatabaseInUse);
    const restarted = await openOnceStale();
    await expectKilledFirstCycleLeftNothing(restarted.db);

    await resetReplica(replica.url);
    await until(
      "the killed poller's lease to expire",
      async () =>
        (await restarted.db.$queryRaw<Array<{ held: boolean }>>`SELECT "pollLeaseUntil" > now() AS held FROM "WatchedModel" WHERE id = ${KIMI}`)[0].held === false,
    );
    const client = createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 5_000, maxAttempts: 2, baseDelayMs: 5 });
    const next = await runPollCycle(restarted.db, client, { trigger: "test" });
    expect(next.models[0]).toMatchObject({ ok: true, endpoints: 11 });
    expect(await restarted.db.endpointSample.count()).toBe(11);
  });

  it("a fresh lock refuses; one left behind longer than the stale time is taken over", async () => {
    const lock = path.join(dir, LOCK_FILE);
    mkdirSync(lock); // as a live process holds it: refreshed just now
    await expect(openDatabase({ embeddedDir: dir })).rejects.toThrow(/in use by another process/);
    const old = new Date(Date.now() - LOCK_STALE_MS * 2);
    utimesSync(lock, old, old); // its holder stopped refreshing it
    const db = await open();
    expect(await db.db.watchedModel.count()).toBe(1);
  });
});
