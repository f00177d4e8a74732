import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { healthReport } from "@/lib/queries/health";
import { seedWatchedModels } from "@/lib/watched-models";
import { startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

describe.each(engines)("health on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, ["moonshotai/kimi-k2.5"]);
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });

  it("says the database is reachable, the last successful poll per model, and whether the scheduler runs", async () => {
    const openDb = async () => ({ db: opened.db, engine: opened.engine });
    const before = await healthReport({ openDb, schedulerRunning: false });
    expect(before).toMatchObject({
      ok: true,
      database: { reachable: true, engine: engine.name },
      scheduler: { running: false },
      models: [{ id: "moonshotai/kimi-k2.5", lastSuccessAt: null }],
    });
    const cycle = await runPollCycle(opened.db, createOpenRouterClient({ baseUrl: replica.baseUrl }), { trigger: "test" });
    const after = await healthReport({ openDb, schedulerRunning: true });
    expect(after.scheduler.running).toBe(true);
    expect(cycle.models[0].ok).toBe(true);
    expect(after.models[0].lastSuccessAt).toEqual(expect.any(String));
    expect(after.models[0].lastPollOk).toBe(true);
  });

  it("reports the database unreachable (the route answers 503) when it cannot be opened or does not answer", async () => {
    const refused = await healthReport({
      openDb: () => Promise.reject(new Error("connect ECONNREFUSED postgresql://user:pw@db:5432/x\n    at stack")),
      schedulerRunning: true,
    });
    expect(refused).toMatchObject({ ok: false, database: { reachable: false }, models: [] });
    expect(refused.database.error).not.toContain("pw@");
    expect(refused.database.error).not.toContain("at stack");
    const silent = await healthReport({ openDb: () => new Promise(() => undefined), schedulerRunning: true, timeoutMs: 50 });
    expect(silent.database).toMatchObject({ reachable: false, error: "no answer within 50 ms" });
  });
});
