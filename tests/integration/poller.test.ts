import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { latestProviders } from "@/lib/queries/providers";
import { listWatchedModels } from "@/lib/queries/models";
import { seedWatchedModels } from "@/lib/watched-models";
import { injectFault, resetReplica, startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

const KIMI = "moonshotai/kimi-k2.5";

describe.each(engines)("poller on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  // A generous timeout where a test does not test it: the replica and the embedded database share
  // this process, and on a loaded machine an answer can take over a second. The hang test sets 500 ms.
  const client = (timeoutMs = 15_000) =>
    createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs, baseDelayMs: 5, maxAttempts: 3 });

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, [KIMI]);
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });
  afterEach(async () => resetReplica(replica.url));

  it("stores a snapshot whose providers API answers every endpoint with exact $/M prices", async () => {
    const result = await runPollCycle(opened.db, client(), { trigger: "test" });
    expect(result.models).toEqual([{ id: KIMI, ok: true, endpoints: 11, attempts: 1 }]);

    const snapshot = await latestProviders(opened.db, KIMI);
    expect(snapshot?.model).toEqual({ id: KIMI, name: "MoonshotAI: Kimi K2.5" });
    expect(snapshot?.demo).toBe(true);
    expect(snapshot?.endpoints).toHaveLength(11);
    const deepinfra = snapshot?.endpoints.find((e) => e.tag === "deepinfra");
    expect(deepinfra).toMatchObject({
      provider: "DeepInfra",
      quantization: "unknown",
      inputPricePerM: "0.45",
      outputPricePerM: "2.25",
      cacheReadPricePerM: "0.09",
      status: 0,
      uptime30m: 99.6,
      latencyP50Ms: null, // OpenRouter hides latency without an API key
      contextLength: 262144,
    });
    const baseten = snapshot?.endpoints.find((e) => e.tag === "baseten/fp4");
    expect(baseten).toMatchObject({ quantization: "fp4", status: -5, uptime30m: 29.8 });
    const venice = snapshot?.endpoints.find((e) => e.tag === "venice");
    expect(venice).toMatchObject({ inputPricePerM: "0.75", outputPricePerM: "3.75", cacheReadPricePerM: null });
  });

  it("keeps static facts once and a narrow row per poll, and uptimes move between polls", async () => {
    await runPollCycle(opened.db, client(), { trigger: "test" });
    await runPollCycle(opened.db, client(), { trigger: "test" });
    const versions = await opened.db.endpointVersion.count();
    const samples = await opened.db.endpointSample.count();
    const raws = await opened.db.rawResponse.count();
    expect(versions).toBe(11); // static facts unchanged across polls
    expect(samples).toBeGreaterThanOrEqual(22);
    expect(raws).toBeGreaterThanOrEqual(2); // bodies differ because uptimes move
    const polls = await opened.db.modelPoll.findMany({ where: { ok: true }, orderBy: { startedAt: "desc" }, take: 2 });
    const [a, b] = await Promise.all(polls.map((p) => opened.db.endpointSample.findMany({ where: { observedAt: p.observedAt! } })));
    expect(a.map((s) => s.uptime30m)).not.toEqual(b.map((s) => s.uptime30m));
  });

  it.each([
    ["500", "http", "HTTP 500"],
    ["hang", "timeout", "within 500 ms"],
    ["malformed", "invalid_json", "not JSON"],
    ["wrong_shape", "invalid_shape", "data.endpoints"],
    ["empty", "empty", "empty endpoint list"],
  ] as const)("a %s answer is recorded and leaves the last good snapshot intact", async (kind, errorKind, text) => {
    await runPollCycle(opened.db, client(), { trigger: "test" });
    const before = await latestProviders(opened.db, KIMI);
    const samplesBefore = await opened.db.endpointSample.count();

    await injectFault(replica.url, { kind, times: 5 });
    const result = await runPollCycle(opened.db, client(kind === "hang" ? 500 : undefined), { trigger: "test" });
    expect(result.models[0]).toMatchObject({ id: KIMI, ok: false });
    expect(result.models[0].error).toContain(text);

    const after = await latestProviders(opened.db, KIMI);
    expect(after?.polledAt).toBe(before?.polledAt);
    expect(after?.endpoints).toEqual(before?.endpoints);
    expect(after?.lastFailure).toMatchObject({ errorKind });
    expect(await opened.db.endpointSample.count()).toBe(samplesBefore);
    const retried = kind === "500" || kind === "hang";
    expect(after?.lastFailure?.attempts).toBe(retried ? 3 : 1);

    const [summary] = await listWatchedModels(opened.db);
    expect(summary.lastPoll?.ok).toBe(false);
    expect(summary.lastSuccessAt).toBe(before?.polledAt);
  });

  it("a 429 with Retry-After: 1 delays the retry by at least 1 s of the real clock (and under 3 s), and the snapshot records the attempts", async () => {
    await injectFault(replica.url, { kind: "429", retryAfter: 1, times: 1 });
    const before = replica.state.requests.length;
    const result = await runPollCycle(opened.db, client(), { trigger: "test" });
    expect(result.models[0]).toMatchObject({ ok: true, attempts: 2, endpoints: 11 });
    // The two endpoint requests as the replica received them: the refused one and the retry.
    const [refused, retry] = replica.state.requests.slice(before).filter((r) => r.path.endsWith("/endpoints"));
    const gapMs = retry.atMs - refused.atMs;
    expect(gapMs).toBeGreaterThanOrEqual(1_000);
    // Bounded: the wait plus late timers on a busy 2-core machine, not a second back-off on top.
    expect(gapMs).toBeLessThan(3_000);
  });

  it("two cycles started at once write one snapshot of the model", async () => {
    const polls = await opened.db.modelPoll.count({ where: { ok: true } });
    const [a, b] = await Promise.all([
      runPollCycle(opened.db, client(), { trigger: "test" }),
      runPollCycle(opened.db, client(), { trigger: "test" }),
    ]);
    const outcomes = [a.models[0], b.models[0]];
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.filter((o) => o.skipped)).toHaveLength(1);
    expect(await opened.db.modelPoll.count({ where: { ok: true } })).toBe(polls + 1);
  });
});
