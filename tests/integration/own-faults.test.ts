import Decimal from "decimal.js";
import type { ChildProcess } from "node:child_process";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { uploadPromptSet } from "@/lib/probe/prompt-sets";
import { claimRun, processRun } from "@/lib/probe/runner";
import { createProbeRun, getRunView } from "@/lib/probe/runs";
import { latestProviders } from "@/lib/queries/providers";
import { seedWatchedModels } from "@/lib/watched-models";
import { injectFault, resetReplica, startReplica, type Replica } from "@/replica/server";
import { CuttableProxy } from "../helpers/cuttable-proxy";
import { expectKilledFirstCycleLeftNothing } from "../helpers/killed-cycle";
import { spawnPoller, until, type ChildResult } from "../helpers/poller-child";
import { createScratchDatabase, type ScratchDatabase } from "../helpers/scratch";

// Faults of our own: the database lost mid-cycle, a poller killed mid-cycle, two pollers on one
// database, on a PostgreSQL server. The embedded engine's counterparts (a killed poller, a second
// process refused) are in embedded-faults.test.ts; a database that goes away mid-cycle is a server's
// fault only (the embedded one lives in the process).

const SERVER = process.env.TEST_DATABASE_URL;
const KIMI = "moonshotai/kimi-k2.5";
const GLM = "z-ai/glm-5";

if (!SERVER) {
  console.warn("own-faults.test.ts: skipped — set TEST_DATABASE_URL to a PostgreSQL server to run the database-loss, kill and two-instance tests");
}

describe.skipIf(!SERVER)("faults of our own on a PostgreSQL server", () => {
  let scratch: ScratchDatabase;
  let direct: OpenedDb;
  let replica: Replica;
  const children: ChildProcess[] = [];

  beforeEach(async () => {
    [scratch, replica] = await Promise.all([createScratchDatabase(SERVER as string), startReplica()]);
    direct = await openDatabase({ databaseUrl: scratch.url, embeddedDir: "unused" });
    await seedWatchedModels(direct.db, [KIMI]);
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
    await resetReplica(replica.url);
    await Promise.all([direct.close(), replica.close()]);
    await scratch.drop();
  });
  afterAll(() => undefined);

  it("the database lost mid-cycle: the cycle fails cleanly, is recorded once the database is back, the next succeeds", async () => {
    const proxy = new CuttableProxy(scratch.url);
    await proxy.listen();
    const app = await openDatabase({ databaseUrl: proxy.url, embeddedDir: "unused" });
    const client = createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 1_500, maxAttempts: 2, baseDelayMs: 5 });
    try {
      const first = await runPollCycle(app.db, client, { trigger: "test" });
      expect(first.models[0].ok).toBe(true);
      const samples = await direct.db.endpointSample.count();

      // The first attempt hangs; while it does, the database goes away. The retry gets the data,
      // and the snapshot cannot be written.
      await injectFault(replica.url, { kind: "hang", times: 1 });
      const requests = replica.state.requests.length;
      const cycle = runPollCycle(app.db, client, { trigger: "test" });
      await until("the poll to reach OpenRouter", () => replica.state.requests.length > requests);
      await proxy.cut();
      const lost = await cycle;
      expect(lost.models[0]).toMatchObject({ id: KIMI, ok: false });
      // The cause after the prefix is the driver's own words for the cut connection, which differ by engine.
      expect(lost.models[0].error).toMatch(/^Could not store the snapshot: \S/);

      // Nothing half-written: no poll record, no samples; the lease is still held.
      expect(await direct.db.modelPoll.count({ where: { cycleId: lost.cycleId } })).toBe(0);
      expect(await direct.db.endpointSample.count()).toBe(samples);
      expect((await direct.db.pollCycle.findUnique({ where: { id: lost.cycleId } }))?.finishedAt).toBeNull();

      // While the database is still away, a cycle cannot even start: it fails at once, cleanly.
      await expect(runPollCycle(app.db, client, { trigger: "test" })).rejects.toThrow();

      await proxy.restore();
      const next = await runPollCycle(app.db, client, { trigger: "test" });
      expect(next.models[0]).toMatchObject({ ok: true, endpoints: 11 });

      const recorded = await direct.db.modelPoll.findMany({ where: { cycleId: lost.cycleId } });
      expect(recorded).toHaveLength(1);
      expect(recorded[0]).toMatchObject({ ok: false, errorKind: "storage", modelId: KIMI });
      expect((await direct.db.pollCycle.findUnique({ where: { id: lost.cycleId } }))?.finishedAt).not.toBeNull();
      expect(await direct.db.endpointSample.count()).toBe(samples + 11);
      expect((await latestProviders(direct.db, KIMI))?.lastFailure).toBeNull();
    } finally {
      await app.close().catch(() => undefined);
      await proxy.cut().catch(() => undefined);
    }
  });

  it("the database lost for a moment during a probe run: every paid answer is stored once, nothing is sent twice, the run finishes", async () => {
    const proxy = new CuttableProxy(scratch.url);
    await proxy.listen();
    const app = await openDatabase({ databaseUrl: proxy.url, embeddedDir: "unused" });
    try {
      expect((await runPollCycle(app.db, createOpenRouterClient({ baseUrl: replica.baseUrl }), { trigger: "test" })).models[0].ok).toBe(true);
      const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({ prompt: `Outage prompt ${i}: count to ${i + 3}.` }));
      const upload = await uploadPromptSet(app.db, "outage", lines.join("\n"));
      if (!upload.ok) throw new Error("upload failed");
      const created = await createProbeRun(app.db, KIMI, { maxCostUsd: "1.00", prompts: { id: upload.id }, endpoints: ["chutes/int4", "deepinfra"] });
      if (created.kind !== "created") throw new Error(`${created.kind}: ${created.message}`);
      const runId = created.run.id;
      const total = created.run.progress.total;
      const claimed = await claimRun(app.db, 30, runId);
      if (!claimed) throw new Error("could not claim");
      const client = createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 120_000, maxAttempts: 1 });
      const run = processRun(app.db, client, runId, claimed.lease, { baseDelayMs: 20, concurrencyPerProvider: 2 });

      // Some answers stored; then the database goes away, and comes back once at least two answers
      // OpenRouter charged for are waiting to be stored (the runner holds them and retries).
      const storedCount = () => direct.db.probeRequest.count({ where: { runId, status: "done" } });
      await until("a few answers to be stored", async () => (await storedCount()) >= 6);
      await proxy.cut();
      await until("two paid answers waiting for the database", async () => replica.state.chat.calls.length - (await storedCount()) >= 2);
      await proxy.restore();

      expect(await run).toBe("done");
      const view = await getRunView(direct.db, runId);
      expect(view).toMatchObject({ status: "done", progress: { done: total, total } });
      // Each request was sent exactly once (no resend of an answer the database was slow to take),
      // and every answer OpenRouter charged for is stored with its cost.
      expect(replica.state.chat.calls).toHaveLength(total);
      const answers = await direct.db.probeRequest.findMany({ where: { runId } });
      expect(answers.filter((a) => a.status === "done" && a.attempts === 1)).toHaveLength(total);
      const charged = replica.state.chat.calls.reduce((sum, c) => sum.plus(c.cost), new Decimal(0));
      const stored = answers.reduce((sum, a) => sum.plus(a.costUsd?.toString() ?? "0"), new Decimal(0));
      expect(stored.toFixed()).toBe(charged.toFixed());
      expect(view?.costUsd).toBe(charged.toFixed());
    } finally {
      await app.close().catch(() => undefined);
      await proxy.cut().catch(() => undefined);
    }
  });

  it("a poller killed mid-cycle leaves no half snapshot, and the next cycle succeeds once its lease expires", { timeout: 25_000 }, async () => {
    await injectFault(replica.url, { kind: "hang", times: 5 });
    const child = spawnPoller({
      CHILD_DATABASE_URL: scratch.url,
      CHILD_OPENROUTER_URL: replica.baseUrl,
      CHILD_LEASE_SECONDS: "3",
      CHILD_TIMEOUT_MS: "60000",
    });
    children.push(child.proc);
    await until("the child to reach OpenRouter", () => replica.state.requests.length > 0);
    child.proc.kill("SIGKILL");
    await child.exited;

    await expectKilledFirstCycleLeftNothing(direct.db);
    const leased = await direct.db.watchedModel.findUnique({ where: { id: KIMI } });
    expect(leased?.pollLeaseUntil).not.toBeNull();

    await resetReplica(replica.url);
    const client = createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 5_000, maxAttempts: 2, baseDelayMs: 5 });
    await until(
      "the killed poller's lease to expire",
      async () => (await direct.db.$queryRaw<Array<{ held: boolean }>>`SELECT "pollLeaseUntil" > now() AS held FROM "WatchedModel" WHERE id = ${KIMI}`)[0].held === false,
    );
    const next = await runPollCycle(direct.db, client, { trigger: "test" });
    expect(next.models[0]).toMatchObject({ ok: true, endpoints: 11 });
    expect(await direct.db.modelPoll.count({ where: { ok: true } })).toBe(1);
    expect(await direct.db.endpointSample.count()).toBe(11);
  });

  it("two poller processes on one database at once: one snapshot per model per cycle", { timeout: 25_000 }, async () => {
    await seedWatchedModels(direct.db, [GLM]);
    // The first request of each model hangs past the timeout, so the lease holder keeps it for a while.
    await injectFault(replica.url, { kind: "hang", times: 2 });
    const env = {
      CHILD_DATABASE_URL: scratch.url,
      CHILD_OPENROUTER_URL: replica.baseUrl,
      CHILD_TIMEOUT_MS: "1500",
      CHILD_WAIT: "1",
    };
    const pair = [spawnPoller(env), spawnPoller(env)];
    children.push(...pair.map((c) => c.proc));
    await until("both pollers to be ready", () => pair.every((c) => c.lines.includes("ready")), 60_000);
    for (const c of pair) c.proc.stdin?.write("go\n");
    await Promise.all(pair.map((c) => c.exited));
    const results = pair.map((c) => {
      const line = c.lines.find((l) => l.startsWith("result "));
      expect(line, "each poller prints its cycle").toMatch(/^result \{"cycleId":\d+,/);
      return JSON.parse((line ?? "").slice("result ".length)) as ChildResult;
    });

    for (const id of [KIMI, GLM]) {
      const outcomes = results.map((r) => r.models.find((m) => m.id === id));
      expect(outcomes.filter((o) => o?.ok), id).toHaveLength(1);
      expect(outcomes.filter((o) => o?.skipped), id).toHaveLength(1);
    }
    for (const r of results) {
      for (const id of [KIMI, GLM]) {
        expect(await direct.db.modelPoll.count({ where: { cycleId: r.cycleId, modelId: id, ok: true } })).toBeLessThanOrEqual(1);
      }
    }
    const okPolls = await direct.db.modelPoll.findMany({ where: { ok: true } });
    expect(okPolls).toHaveLength(2);
    const expected = okPolls.reduce((sum, p) => sum + (p.endpointCount ?? 0), 0);
    expect(await direct.db.endpointSample.count()).toBe(expected);
  });
});
