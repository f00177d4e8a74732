import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/ports";
import { createOpenRouterClient, normaliseModelId, retryAfterMs } from "@/lib/openrouter/client";
import { OpenRouterError } from "@/lib/openrouter/errors";
import { pricePerMillion } from "@/lib/openrouter/schemas";
import { injectFault, resetReplica, startReplica, type Replica } from "@/replica/server";

describe("pricePerMillion", () => {
  it("turns USD per token into exact USD per million", () => {
    expect(pricePerMillion("0.00000045")?.toString()).toBe("0.45");
    expect(pricePerMillion("0.00000375")?.toString()).toBe("3.75");
    expect(pricePerMillion("0.0000000001")?.toString()).toBe("0.0001");
    expect(pricePerMillion("0")?.toString()).toBe("0");
  });
  it("gives null for the -1 sentinel, negatives, junk and absence", () => {
    for (const v of ["-1", "-0.5", "abc", "", "NaN", undefined, null]) expect(pricePerMillion(v)).toBeNull();
  });
});

describe("model ids", () => {
  it("strips routing suffixes and refuses path tricks", () => {
    expect(normaliseModelId("moonshotai/kimi-k2.5:nitro")).toBe("moonshotai/kimi-k2.5");
    for (const bad of ["../etc/passwd", "a/../b", "a/b/c", "noslash", "a/b%2fc", ""]) {
      expect(() => normaliseModelId(bad), bad).toThrow(/not an OpenRouter model id/);
    }
  });
});

describe("retryAfterMs", () => {
  it("reads seconds and HTTP dates", () => {
    expect(retryAfterMs("3")).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs("soon")).toBeNull();
  });
});

describe("OpenRouter client against the replica", () => {
  let replica: Replica;
  const sleeps: number[] = [];
  const client = (over: Partial<Parameters<typeof createOpenRouterClient>[0]> = {}) =>
    createOpenRouterClient({
      baseUrl: replica.baseUrl,
      // Room for a loaded machine; the hang test sets its own short timeout.
      timeoutMs: 10_000,
      maxAttempts: 3,
      baseDelayMs: 100,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      ...over,
    });

  beforeAll(async () => {
    replica = await startReplica();
  });
  afterAll(() => replica.close());

  it("validates the endpoints response and keeps unknown fields", async () => {
    const result = await client().endpoints("moonshotai/kimi-k2.5");
    expect(result.attempts).toBe(1);
    expect(result.demo).toBe(true);
    expect(result.data.data.endpoints).toHaveLength(11);
    expect(result.data.data.architecture).toMatchObject({ tokenizer: "Other" });
  });

  it("sends the key as a bearer token, which unlocks latency figures", async () => {
    const withKey = await client({ apiKey: "k" }).endpoints("moonshotai/kimi-k2.5");
    expect(withKey.data.data.endpoints[0].latency_last_30m?.p50).toBeGreaterThan(0);
    const without = await client().endpoints("moonshotai/kimi-k2.5");
    expect(without.data.data.endpoints[0].latency_last_30m).toBeNull();
  });

  it("honours Retry-After on 429 and backs off with jitter on 5xx", async () => {
    sleeps.length = 0;
    await resetReplica(replica.url);
    await injectFault(replica.url, { kind: "429", retryAfter: 2 });
    await injectFault(replica.url, { kind: "503" });
    const result = await client().endpoints("moonshotai/kimi-k2.5");
    expect(result.attempts).toBe(3);
    expect(sleeps[0]).toBe(2000);
    expect(sleeps[1]).toBeGreaterThanOrEqual(100);
    expect(sleeps[1]).toBeLessThanOrEqual(200);
  });

  it("does not retry other 4xx, nor bodies that are not JSON", async () => {
    await resetReplica(replica.url);
    await expect(client().endpoints("nobody/nothing")).rejects.toMatchObject({ kind: "http", status: 404, attempts: 1 });
    await injectFault(replica.url, { kind: "malformed" });
    await expect(client().endpoints("moonshotai/kimi-k2.5")).rejects.toMatchObject({ kind: "invalid_json", attempts: 1 });
  });

  it("gives up after the last attempt with a typed error", async () => {
    await resetReplica(replica.url);
    await injectFault(replica.url, { kind: "hang", times: 3 });
    const err = await client({ timeoutMs: 300 }).endpoints("moonshotai/kimi-k2.5").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenRouterError);
    expect(err).toMatchObject({ kind: "timeout", attempts: 3 });
    expect((err as Error).message).toContain("gave up after 3 attempts");
  });

  it("reports a refused connection as a network error, in words", async () => {
    const port = await freePort(); // free a moment ago: nothing listens there
    const closed = createOpenRouterClient({ baseUrl: `http://127.0.0.1:${port}/api/v1`, maxAttempts: 2, baseDelayMs: 1 });
    await expect(closed.models()).rejects.toMatchObject({
      kind: "network",
      attempts: 2,
      message: `Could not reach http://127.0.0.1:${port}/api/v1/models: nothing accepted the connection at 127.0.0.1:${port} (ECONNREFUSED) (gave up after 2 attempts)`,
    });
  });

  it("says a name that cannot be looked up means no DNS or no internet (the offline first run)", async () => {
    // .invalid never resolves (RFC 2606), with or without internet.
    const offline = createOpenRouterClient({ baseUrl: "http://openrouter.invalid/api/v1", maxAttempts: 1, baseDelayMs: 1 });
    const failed = await offline.models().catch((err: unknown) => err);
    expect(failed).toMatchObject({ kind: "network", attempts: 1 });
    expect((failed as Error).message).toMatch(
      /^Could not reach http:\/\/openrouter\.invalid\/api\/v1\/models: the name openrouter\.invalid could not be looked up \((ENOTFOUND|EAI_AGAIN)\): this machine has no working DNS or no internet connection$/,
    );
  });

  it("refuses to wait for an over-long Retry-After", async () => {
    await resetReplica(replica.url);
    await injectFault(replica.url, { kind: "429", retryAfter: 3600 });
    await expect(client().models()).rejects.toMatchObject({ kind: "http", status: 429, attempts: 1 });
  });

  it("reads /key and reports /credits' 403 for a non-management key", async () => {
    const key = await client({ apiKey: "k" }).key();
    expect(key.data.data.usage).toBeGreaterThan(0);
    await expect(client({ apiKey: "k" }).credits()).rejects.toMatchObject({ kind: "http", status: 403 });
  });
});
