import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChannel } from "@/lib/alerts/channels/store";
import { writeAlertEvent } from "@/lib/alerts/outbox";
import { sendDueDeliveries } from "@/lib/alerts/sender";
import { EmbeddedDatabaseInUse } from "@/lib/db/embedded-lock";
import { openDatabase, type OpenedDb } from "@/lib/db/engines";
import { engines } from "../helpers/db";
import { until } from "../helpers/poller-child";
import { createScratchDatabase } from "../helpers/scratch";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

// The server killed after an event was written, while it was sending it (the receiver has the
// request, no answer has come back, nothing is marked): after a restart the delivery goes out
// once the dead sender's lease has run out. This is the case docs/alerts.md names as the one that
// may repeat: the receiver sees the same eventId twice and keeps one.

// On the embedded engine this takes about a minute: a fresh folder is migrated (~15 s), the child
// opens it again, and the restart waits for the killed holder's folder lock to go stale (10 s).
const LEASE_SECONDS = 2;

describe.each(engines)("a sender process killed mid-delivery, on the $name engine", (engine) => {
  let receiver: Receiver;
  let where: { CHILD_DATABASE_URL?: string; CHILD_EMBEDDED_DIR?: string };
  let cleanUp: () => Promise<void>;
  let reopen: () => Promise<OpenedDb>;

  beforeAll(async () => {
    receiver = await startReceiver();
    if (engine.name === "postgres") {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL as string);
      where = { CHILD_DATABASE_URL: scratch.url };
      reopen = () => openDatabase({ databaseUrl: scratch.url, embeddedDir: "unused" });
      cleanUp = () => scratch.drop();
    } else {
      const dir = mkdtempSync(path.join(tmpdir(), "routeboard-alert-crash-"));
      where = { CHILD_EMBEDDED_DIR: dir };
      // As a restarted server does: retried while the killed holder's folder lock is still fresh.
      reopen = async () => {
        const deadline = Date.now() + 60_000;
        for (;;) {
          try {
            return await openDatabase({ embeddedDir: dir });
          } catch (err) {
            if (!(err instanceof EmbeddedDatabaseInUse) || Date.now() > deadline) throw err;
            await new Promise((r) => setTimeout(r, 500));
          }
        }
      };
      cleanUp = async () => rmSync(dir, { recursive: true, force: true });
    }
  });
  afterAll(async () => {
    await receiver.close();
    await cleanUp();
  });

  it("delivers after the restart, with the same eventId", { timeout: 60_000 }, async () => {
    // The event is written (and committed) by the first server.
    const first = await reopen();
    await createChannel(first.db, { kind: "webhook", name: "Crash", url: `${receiver.url}/hook` }, { allowPrivate: true });
    const event = await first.db.$transaction((tx) =>
      writeAlertEvent(tx, { kind: "routing", view: { id: 1, slug: "prod", name: "Prod" }, summary: "The routing export changed.", data: { old: ["a"], new: ["b"] }, observedAt: new Date() }),
    );
    await first.close(); // the embedded folder has one process at a time

    // Its sender process is killed while the receiver holds the request.
    receiver.answer = () => "hang";
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "tests/integration/fixtures/alert-sender-child.ts"], {
      env: { ...process.env, ...where, CHILD_LEASE_SECONDS: String(LEASE_SECONDS) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = new Promise((resolve) => child.on("close", resolve));
    await until("the receiver to get the request", () => receiver.received.length === 1, 60_000);
    child.kill("SIGKILL");
    await exited;

    // The restarted server: the delivery is still 'sending', claimed by the dead process.
    receiver.answer = () => ({ status: 200, body: "ok" });
    const second = await reopen();
    try {
      const [left] = await second.db.alertDelivery.findMany();
      expect(left).toMatchObject({ status: "sending", attempts: 1 });
      expect(left.claimedBy).toMatch(/^child-\d+$/);
      await until("the dead sender's lease to run out", async () => {
        const [row] = await second.db.$queryRaw<Array<{ expired: boolean }>>`SELECT "claimedUntil" < now() AS expired FROM "AlertDelivery"`;
        return row.expired;
      });
      expect(await sendDueDeliveries(second.db, { allowPrivate: true, baseUrl: "https://routeboard.example" })).toEqual({ sent: 1, retrying: 0, failed: 0 });
      const [done] = await second.db.alertDelivery.findMany();
      expect(done).toMatchObject({ status: "sent", attempts: 2, responseStatus: 200, claimedBy: null });
      // Sent twice (the first answer never came back), same eventId both times: the receiver keeps one.
      expect(receiver.received.map((r) => JSON.parse(r.body).eventId)).toEqual([event.eventId, event.eventId]);
      expect(await sendDueDeliveries(second.db, { allowPrivate: true, baseUrl: "https://routeboard.example" })).toEqual({ sent: 0, retrying: 0, failed: 0 });
    } finally {
      await second.close();
    }
  });
});

/** An alert-sender child process; its stdout lines are collected. */
function spawnSender(env: Record<string, string>): { proc: ChildProcess; lines: string[]; exited: Promise<number | null> } {
  const proc = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "tests/integration/fixtures/alert-sender-child.ts"], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines: string[] = [];
  let buffer = "";
  proc.stdout?.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split("\n");
    buffer = parts.pop() ?? "";
    lines.push(...parts);
  });
  const exited = new Promise<number | null>((resolve) => proc.on("close", (code) => resolve(code)));
  return { proc, lines, exited };
}

// Two instances of the app on one PostgreSQL server, as two processes: every delivery goes out once.
describe.runIf(process.env.TEST_DATABASE_URL)("two sender processes on one PostgreSQL server", () => {
  it("send each event to each channel exactly once", { timeout: 30_000 }, async () => {
    const receiver = await startReceiver();
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL as string);
    const opened = await openDatabase({ databaseUrl: scratch.url, embeddedDir: "unused" });
    try {
      await createChannel(opened.db, { kind: "webhook", name: "One", url: `${receiver.url}/one` }, { allowPrivate: true });
      await createChannel(opened.db, { kind: "webhook", name: "Two", url: `${receiver.url}/two` }, { allowPrivate: true });
      const written: string[] = [];
      for (let i = 0; i < 20; i++) {
        const view = { id: 10 + (i % 4), slug: `v${i % 4}`, name: `View ${i % 4}` };
        const event = await opened.db.$transaction((tx) =>
          writeAlertEvent(tx, { kind: "endpoint", view, summary: `Change ${i}.`, data: { i }, observedAt: new Date() }),
        );
        written.push(event.eventId);
      }
      const children = [0, 1].map(() => spawnSender({ CHILD_DATABASE_URL: scratch.url, CHILD_WAIT: "1" }));
      await until("both senders to be ready", () => children.every((c) => c.lines.includes("ready")), 60_000);
      for (const c of children) c.proc.stdin?.write("go\n");
      expect(await Promise.all(children.map((c) => c.exited))).toEqual([0, 0]);
      const rounds = children.map((c) => JSON.parse(c.lines.find((l) => l.startsWith("round "))!.slice(6)) as { sent: number });
      expect(rounds[0].sent + rounds[1].sent).toBe(40);
      expect(receiver.received).toHaveLength(40);
      const pairs = receiver.received.map((r) => `${r.path} ${JSON.parse(r.body).eventId}`);
      expect(new Set(pairs).size).toBe(40);
      expect(new Set(receiver.received.map((r) => JSON.parse(r.body).eventId))).toEqual(new Set(written));
      expect(await opened.db.alertDelivery.count({ where: { status: "sent", attempts: 1 } })).toBe(40);
    } finally {
      await opened.close();
      await scratch.drop();
      await receiver.close();
    }
  });
});
