import Decimal from "decimal.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { budgetGuard } from "@/lib/keys/budget-guard";
import { createPipelineKey, KeyNotReadError, setKeyDisabled, setKeyLimit } from "@/lib/keys/operations";
import { choosePipelineKey, currentPipelineKey, recentKeyChanges } from "@/lib/keys/records";
import { OpenRouterError } from "@/lib/openrouter/errors";
import { createManagementClient } from "@/lib/openrouter/management";
import { MANAGEMENT_KEY_PREFIX, SEEDED_DAILY_SECRET, SEEDED_PIPELINE_SECRET } from "@/replica/keys";
import { injectFault, resetReplica, startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

// OpenRouter's key API through a management key, against the replica with the real client: a limit
// set and read back, a pipeline that stops at its limit, the emergency stop, and faults that change
// nothing stored.

const MANAGEMENT_KEY = `${MANAGEMENT_KEY_PREFIX}integration-test`;

describe.each(engines)("OpenRouter keys on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  const management = (apiKey = MANAGEMENT_KEY) =>
    createManagementClient({ baseUrl: replica.baseUrl, apiKey, timeoutMs: 3000, baseDelayMs: 1, maxAttempts: 2, sleep: async () => undefined });

  /** One chat completion with a key, as the pipeline sends it. */
  async function chat(secret: string): Promise<{ status: number; cost: string | null; message: string | null }> {
    const response = await fetch(`${replica.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "moonshotai/kimi-k2.5", messages: [{ role: "user", content: "Say ok" }], max_tokens: 800 }),
    });
    const text = await response.text();
    const body = JSON.parse(text) as { usage?: { cost: number }; error?: { message: string } };
    // The cost's own text, never summed as a float.
    const cost = /"cost":([0-9.eE-]+)/.exec(text)?.[1] ?? null;
    return { status: response.status, cost: body.usage ? cost : null, message: body.error?.message ?? null };
  }

  async function seededPipelineHash(): Promise<string> {
    const keys = (await management().listKeys()).data;
    const key = keys.find((k) => k.name === "Batch pipeline");
    if (!key) throw new Error("the replica's seeded pipeline key is missing");
    return key.hash;
  }

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });
  afterEach(async () => {
    await resetReplica(replica.url);
    await opened.db.keyChange.deleteMany();
    await opened.db.pipelineKey.deleteMany();
    await opened.db.keyUsageSnapshot.deleteMany();
  });

  it("lists the account's keys only for a management key", async () => {
    const keys = (await management().listKeys()).data;
    expect(keys.map((k) => k.name)).toEqual(["Batch pipeline", "Research notebook", "Nightly evals"]);
    expect(keys[1]).toMatchObject({ limit: "20", limit_remaining: "16.875", limit_reset: null, usage: "3.125", disabled: false });
    // $5 a day: the $12.40 spent on earlier days does not count against today's limit
    expect(keys[2]).toMatchObject({ limit: "5", limit_remaining: "5", limit_reset: "daily", usage: "12.4", usage_daily: "0", disabled: false });
    const refused = await management("sk-or-v1-an-ordinary-key").listKeys().catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(OpenRouterError);
    expect((refused as OpenRouterError).status).toBe(401);
  });

  it("sets the pipeline key's limit to the budget, reads it back, and records who changed what", async () => {
    const hash = await seededPipelineHash();
    const result = await setKeyLimit(opened.db, management(), { hash, limitUsd: "100.00", actor: "ana" });
    expect(result.before.limit).toBeNull();
    expect(result.after).toMatchObject({ hash, limit: "100", limit_remaining: "58.63" });
    // OpenRouter itself now holds the limit: a fresh read shows it.
    expect((await management().getKey(hash)).data.limit).toBe("100");
    const [change] = await recentKeyChanges(opened.db);
    expect(change).toMatchObject({ actor: "ana", keyHash: hash, keyName: "Batch pipeline", action: "limit", before: "no limit", after: "$100.00" });
    const snapshot = await opened.db.keyUsageSnapshot.findFirstOrThrow();
    expect(snapshot.limit?.toString()).toBe("100");
    expect(snapshot.demo).toBe(true);
  });

  it("enforcing the budget on a key whose limit resets daily removes the reset, so the budget is spent once", async () => {
    const hash = (await management().listKeys()).data.find((k) => k.name === "Nightly evals")?.hash as string;
    // What sending only {limit} does (the replica honours limit_reset as OpenRouter documents it):
    // the reset stays, and the limit counts only today's usage.
    await management().updateKey(hash, { limit: "0.01" });
    expect((await management().getKey(hash)).data).toMatchObject({ limit: "0.01", limit_reset: "daily", limit_remaining: "0.01" });
    let served = 0;
    for (let i = 0; i < 10 && (await chat(SEEDED_DAILY_SECRET)).status === 200; i++) served += 1;
    // $0.00234 a request: four leave $0.00064 of today's $0.01, the fifth crosses it
    expect(served).toBe(5);
    const refused = await chat(SEEDED_DAILY_SECRET);
    expect(refused).toMatchObject({ status: 402, message: expect.stringMatching(/limit of \$0\.01 for this day/) });
    // usage so far: 12.40 + 5 × 0.00234 = 12.4117

    await choosePipelineKey(opened.db, { hash, name: "Nightly evals" }, "ana");
    const result = await setKeyLimit(opened.db, management(), { hash, limitUsd: "15.00", actor: "ana" });
    expect(result.before).toMatchObject({ limit: "0.01", limit_reset: "daily" });
    // Read back: the limit and no reset; all the key's usage now counts: 15 − 12.4117 = 2.5883
    expect(result.after).toMatchObject({ limit: "15", limit_reset: null, limit_remaining: "2.5883" });
    expect((await management().getKey(hash)).data).toMatchObject({ limit: "15", limit_reset: null });
    const [change] = await recentKeyChanges(opened.db);
    expect(change).toMatchObject({ action: "limit", before: "$0.01, resets daily", after: "$15.00" });
    expect((await opened.db.keyUsageSnapshot.findFirstOrThrow({ orderBy: { id: "desc" } })).limitReset).toBeNull();
    expect(await budgetGuard(opened.db, management())).toMatchObject({ pipelineKey: { hash, limit: "15", limitRemaining: "2.5883", limitReset: null, stale: false } });
    expect((await chat(SEEDED_DAILY_SECRET)).status).toBe(200); // 12.41404 < 15

    // A budget below what the key has spent in all stops it at once: no window starts it again.
    await setKeyLimit(opened.db, management(), { hash, limitUsd: "12.41", actor: "ana" });
    expect((await chat(SEEDED_DAILY_SECRET)).status).toBe(402);
    expect(await budgetGuard(opened.db, management())).toMatchObject({ ok: false, pipelineKey: { limitRemaining: "0", limitReset: null } });
  });

  it("a pipeline loop stops when its key reaches the limit, and the budget guard says why", async () => {
    const { key, secret } = await createPipelineKey(opened.db, management(), { name: "Pipeline (budget)", limitUsd: "0.01", actor: "ana" });
    expect(key.limit).toBe("0.01");
    expect((await currentPipelineKey(opened.db))?.hash).toBe(key.hash);
    // the secret is not stored anywhere
    const everything = JSON.stringify([await opened.db.keyChange.findMany(), await opened.db.pipelineKey.findMany(), await opened.db.keyUsageSnapshot.findMany()]);
    expect(everything).not.toContain(secret);

    let served = 0;
    let spent = new Decimal(0);
    let guard = await budgetGuard(opened.db, management());
    for (let batch = 0; batch < 50 && guard.ok; batch++) {
      const answer = await chat(secret);
      expect(answer.status).toBe(200);
      served += 1;
      spent = spent.plus(answer.cost as string);
      guard = await budgetGuard(opened.db, management());
    }
    // $0.00234 a request: four leave $0.00064 under the limit, the fifth crosses it.
    expect(served).toBe(5);
    expect(spent.toFixed()).toBe("0.0117");
    expect(guard).toMatchObject({ ok: false, reason: "The pipeline key has reached its limit of $0.01.", pipelineKey: { hash: key.hash, limit: "0.01", limitRemaining: "0", disabled: false } });
    // A pipeline that ignored the guard is refused by OpenRouter (the replica) itself.
    const refused = await chat(secret);
    expect(refused.status).toBe(402);
    expect(refused.message).toMatch(/limit/);
  });

  it("stops the key in one change and starts it again in one", async () => {
    const hash = await seededPipelineHash();
    await choosePipelineKey(opened.db, { hash, name: "Batch pipeline" }, "ana");
    expect((await chat(SEEDED_PIPELINE_SECRET)).status).toBe(200);

    const stopped = await setKeyDisabled(opened.db, management(), { hash, disabled: true, actor: "ana" });
    expect(stopped.after.disabled).toBe(true);
    expect((await chat(SEEDED_PIPELINE_SECRET)).status).toBe(403);
    expect(await budgetGuard(opened.db, management())).toMatchObject({ ok: false, reason: expect.stringMatching(/disabled/) });

    const started = await setKeyDisabled(opened.db, management(), { hash, disabled: false, actor: "ben" });
    expect(started.after.disabled).toBe(false);
    expect((await chat(SEEDED_PIPELINE_SECRET)).status).toBe(200);
    expect((await budgetGuard(opened.db, management())).ok).toBe(true);

    const changes = await recentKeyChanges(opened.db);
    expect(changes.map((c) => [c.actor, c.action, c.before, c.after])).toEqual([
      ["ben", "disabled", "disabled", "enabled"],
      ["ana", "disabled", "enabled", "disabled"],
      ["ana", "pipeline_key", null, `Batch pipeline (${hash.slice(0, 8)})`],
    ]);
  });

  it("during a management-API failure the budget guard gives the pipeline key's last reading, marked stale with its age, and says the read failed", async () => {
    const hash = await seededPipelineHash();
    await choosePipelineKey(opened.db, { hash, name: "Batch pipeline" }, "ana");
    // No reading stored yet: nothing to fall back on, and the answer says why.
    await injectFault(replica.url, { kind: "500", path: "/keys", times: 100 });
    const unread = await budgetGuard(opened.db, management());
    expect(unread).toMatchObject({ pipelineKey: null, keyReadError: expect.stringMatching(/HTTP 500/), ok: true, reason: expect.stringMatching(/could not be read .* no stored reading/) });
    await resetReplica(replica.url);

    await setKeyLimit(opened.db, management(), { hash, limitUsd: "50", actor: "ana" }); // stores a reading
    const reading = await opened.db.keyUsageSnapshot.findFirstOrThrow({ orderBy: { id: "desc" } });
    const later = new Date(reading.observedAt.getTime() + 90_000);

    const fresh = await budgetGuard(opened.db, management(), later);
    expect(fresh).toMatchObject({ keyReadError: null, pipelineKey: { hash, limit: "50", limitRemaining: "8.63", limitReset: null, disabled: false, readAt: later.toISOString(), ageSeconds: 0, stale: false } });

    await injectFault(replica.url, { kind: "500", path: "/keys", times: 100 });
    const stale = await budgetGuard(opened.db, management(), later);
    expect(stale).toMatchObject({
      keyReadError: expect.stringMatching(/HTTP 500/),
      pipelineKey: { hash, limit: "50", limitRemaining: "8.63", limitReset: null, disabled: false, readAt: reading.observedAt.toISOString(), ageSeconds: 90, stale: true },
      ok: true,
      reason: expect.stringMatching(/\$8\.63 left under its limit \(as last read, .* UTC; the key could not be read now: .*HTTP 500/),
    });
    await resetReplica(replica.url);

    // A key last seen disabled still stops the pipeline while it cannot be read.
    await setKeyDisabled(opened.db, management(), { hash, disabled: true, actor: "ana" });
    await injectFault(replica.url, { kind: "hang", path: "/keys", times: 100 });
    const stopped = await budgetGuard(opened.db, management());
    expect(stopped).toMatchObject({ ok: false, keyReadError: expect.stringMatching(/No answer/), pipelineKey: { disabled: true, stale: true } });
    expect(stopped.reason).toMatch(/^The pipeline key is disabled .*as last read/);
  });

  it.each(["401", "429", "500", "hang"] as const)("a management-key failure (%s) sends no change and changes nothing stored", { timeout: 40_000 }, async (kind) => {
    const hash = await seededPipelineHash();
    await setKeyLimit(opened.db, management(), { hash, limitUsd: "50", actor: "ana" });
    const before = JSON.stringify([await opened.db.keyChange.findMany(), await opened.db.pipelineKey.findMany(), await opened.db.keyUsageSnapshot.findMany()]);

    const changesSent = () => replica.state.requests.filter((r) => r.method !== "GET" && r.path.startsWith("/api/v1/keys")).length;
    const sentBefore = changesSent();
    await injectFault(replica.url, { kind, path: "/keys", times: 4, retryAfter: 0 });
    // Both controls read the key first; neither sends its change when that read fails.
    for (const change of [
      () => setKeyLimit(opened.db, management(), { hash, limitUsd: "75", actor: "ana" }),
      () => setKeyDisabled(opened.db, management(), { hash, disabled: true, actor: "ana" }),
    ]) {
      const failed = await change().catch((err: unknown) => err);
      expect(failed).toBeInstanceOf(KeyNotReadError);
      expect((failed as Error).message).toMatch(kind === "hang" ? /^OpenRouter’s key API could not be read before the change \(No answer/ : new RegExp(`^OpenRouter’s key API could not be read before the change \\(HTTP ${kind}`));
      expect((failed as Error).message).toMatch(/so no change was sent$/);
    }
    expect(changesSent()).toBe(sentBefore);
    const after = JSON.stringify([await opened.db.keyChange.findMany(), await opened.db.pipelineKey.findMany(), await opened.db.keyUsageSnapshot.findMany()]);
    expect(after).toBe(before);
    // OpenRouter still holds the limit set before the failure, and the key is still enabled.
    replica.state.faults.splice(0); // what is left of the fault (a 401 is not retried), not the account
    expect((await management().getKey(hash)).data).toMatchObject({ limit: "50", disabled: false });
  });
});
