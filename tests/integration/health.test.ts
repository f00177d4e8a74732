import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { healthReport } from "@/lib/queries/health";
import { seedWatchedModels } from "@/lib/watched-models";
import { injectFault, resetReplica, startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

const KIMI = "moonshotai/kimi-k2.5";
const SECOND = 1000;
const MINUTE = 60 * SECOND;

describe.each(engines)("health on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  const openDb = async () => ({ db: opened.db, engine: opened.engine });
  const client = () => createOpenRouterClient({ baseUrl: replica.baseUrl, maxAttempts: 1, baseDelayMs: 1 });
  const poll = () => runPollCycle(opened.db, client(), { trigger: "test" });
  /** A poll the replica answers 503 to, as OpenRouter does when it is down. */
  async function failingPoll() {
    await injectFault(replica.url, { kind: "503", times: 1, path: "endpoints" });
    const cycle = await poll();
    expect(cycle.models[0]).toMatchObject({ id: KIMI, ok: false });
    return cycle;
  }

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, [KIMI]);
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });
  afterEach(async () => {
    await resetReplica(replica.url);
  });

  // Runs first: the database holds no successful poll yet.
  it("every poll failed since start: ok through the first interval, then degraded (503) saying so", async () => {
    const startedAt = new Date();
    const scheduler = { intervalSeconds: 300, startedAt };
    await failingPoll();
    await failingPoll();
    const at = (ms: number) => healthReport({ openDb, scheduler, now: new Date(startedAt.getTime() + ms) });

    const early = await at(5 * MINUTE);
    expect(early).toMatchObject({ ok: true, status: "ok", reason: null, scheduler: { running: true, intervalSeconds: 300 } });
    expect(early.models).toEqual([expect.objectContaining({ id: KIMI, lastSuccessAt: null, lastPollOk: false, stale: false })]);

    const late = await at(5 * MINUTE + SECOND);
    expect(late).toMatchObject({ ok: false, status: "degraded", database: { reachable: true, engine: engine.name } });
    expect(late.models[0]).toMatchObject({ lastSuccessAt: null, stale: true });
    expect(late.reason).toBe(
      `No poll of ${KIMI} has ever succeeded; the server started 5 min ago (the scheduler polls every 5 min; the last poll failed (http)).`,
    );
  });

  it("polling off (POLL_INTERVAL_SECONDS=0): failed polls a day old are reported, not called degraded", async () => {
    await failingPoll();
    const report = await healthReport({ openDb, scheduler: null, now: new Date(Date.now() + 24 * 60 * MINUTE) });
    expect(report).toMatchObject({ ok: true, status: "ok", reason: null, scheduler: { running: false, intervalSeconds: null, startedAt: null } });
    expect(report.models[0]).toMatchObject({ lastSuccessAt: null, lastPollOk: false, stale: false });
  });

  it("says the last successful poll per model; degraded once none has succeeded for three intervals", async () => {
    const startedAt = new Date(Date.now() - 60 * MINUTE);
    const scheduler = { intervalSeconds: 60, startedAt };
    const cycle = await poll();
    expect(cycle.models[0].ok).toBe(true);
    await failingPoll();
    const now = await healthReport({ openDb, scheduler });
    expect(now).toMatchObject({ ok: true, status: "ok", scheduler: { running: true, intervalSeconds: 60, startedAt: startedAt.toISOString() } });
    expect(now.models[0]).toMatchObject({ id: KIMI, lastPollOk: false, stale: false });
    const lastSuccess = Date.parse(now.models[0].lastSuccessAt as string);
    // The successful poll is the one just run (its observation time lies within the test's run).
    expect(Math.abs(lastSuccess - Date.now())).toBeLessThan(MINUTE);

    const justInside = await healthReport({ openDb, scheduler, now: new Date(lastSuccess + 3 * MINUTE) });
    expect(justInside).toMatchObject({ ok: true, status: "ok" });
    const past = await healthReport({ openDb, scheduler, now: new Date(lastSuccess + 3 * MINUTE + SECOND) });
    expect(past).toMatchObject({ ok: false, status: "degraded" });
    expect(past.models[0].stale).toBe(true);
    expect(past.reason).toBe(
      `No poll of ${KIMI} has succeeded for 3 min (since ${now.models[0].lastSuccessAt}), more than 3 intervals (the scheduler polls every 60 s; the last poll failed (http)).`,
    );

    // A server restarted long after that success gets its first interval before it is blamed.
    const restarted = { intervalSeconds: 60, startedAt: new Date(lastSuccess + 24 * 60 * MINUTE) };
    const afterRestart = (ms: number) => healthReport({ openDb, scheduler: restarted, now: new Date(restarted.startedAt.getTime() + ms) });
    expect(await afterRestart(MINUTE)).toMatchObject({ ok: true, status: "ok" });
    expect(await afterRestart(MINUTE + SECOND)).toMatchObject({ ok: false, status: "degraded" });

    // A successful poll again: ok.
    expect((await poll()).models[0].ok).toBe(true);
    const recovered = await healthReport({ openDb, scheduler });
    expect(recovered).toMatchObject({ ok: true, status: "ok", reason: null, models: [{ id: KIMI, lastPollOk: true, stale: false }] });
  });

  it("reports the database unreachable (the route answers 503) when it cannot be opened or does not answer", async () => {
    const scheduler = { intervalSeconds: 300, startedAt: new Date() };
    const refused = await healthReport({
      openDb: () => Promise.reject(new Error("connect ECONNREFUSED postgresql://user:pw@db:5432/x\n    at stack")),
      scheduler,
    });
    expect(refused).toMatchObject({ ok: false, status: "unavailable", database: { reachable: false }, models: [] });
    expect(refused.database.error).not.toContain("pw@");
    expect(refused.database.error).not.toContain("at stack");
    expect(refused.reason).toBe(`The database cannot be reached: ${refused.database.error}`);
    const silent = await healthReport({ openDb: () => new Promise(() => undefined), scheduler, timeoutMs: 50 });
    expect(silent.database).toMatchObject({ reachable: false, error: "no answer within 50 ms" });
  });
});
