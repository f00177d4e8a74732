import Decimal from "decimal.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import type { ChatRequest } from "@/lib/openrouter/chat-schemas";
import { OpenRouterError } from "@/lib/openrouter/errors";
import { injectFault, startReplica, type Replica } from "@/replica/server";

// The replica's chat completions through the real client: OpenRouter's shape, pinning, logprobs
// only where supported, another template's prompt tokens, answers from another provider, faults.

describe("replica chat completions", () => {
  let replica: Replica;
  const client = () => createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 2_000, maxAttempts: 1 });
  const ask = (tag: string, over: Partial<ChatRequest> = {}) =>
    client().chat({
      model: "moonshotai/kimi-k2.5",
      messages: [{ role: "user", content: "What is the capital of France?" }],
      max_tokens: 1,
      temperature: 0,
      logprobs: true,
      top_logprobs: 20,
      reasoning: { enabled: false },
      provider: { only: [tag], allow_fallbacks: false },
      ...over,
    });

  beforeAll(async () => {
    replica = await startReplica();
  });
  afterAll(() => replica?.close());

  it("answers pinned requests in OpenRouter's shape, with 20 top logprobs and an exact cost", async () => {
    const { data, demo } = await ask("moonshotai/int4", { seed: 1 });
    expect(demo).toBe(true);
    expect(data.provider).toBe("Moonshot AI");
    expect(data.model).toBe("moonshotai/kimi-k2.5-20260127");
    expect(data.choices[0].finish_reason).toBe("length");
    const content = data.choices[0].logprobs?.content ?? [];
    expect(content).toHaveLength(1);
    expect(content[0].top_logprobs).toHaveLength(20);
    expect(data.usage.completion_tokens).toBe(1);
    // $0.60/M input, $3.00/M output.
    const expected = new Decimal("0.0000006").times(data.usage.prompt_tokens).plus("0.000003");
    expect(new Decimal(String(data.usage.cost)).equals(expected)).toBe(true);
    // The reference's stack is not bit-deterministic (per-call batch noise): a repeated call lists
    // slightly different logprobs, whatever its seed. The seed decides only what is sampled.
    const again = await ask("moonshotai/int4", { seed: 1 });
    const first = Object.fromEntries((content[0].top_logprobs ?? []).map((t) => [t.token, t.logprob]));
    const second = again.data.choices[0].logprobs?.content?.[0].top_logprobs ?? [];
    expect(second).toHaveLength(20);
    const shifts = second.filter((t) => t.token in first).map((t) => Math.abs(t.logprob - first[t.token]));
    expect(shifts.length).toBeGreaterThanOrEqual(15);
    expect(Math.max(...shifts)).toBeGreaterThan(0);
    expect(Math.max(...shifts)).toBeLessThan(0.2);
    const sample = (seed: number) => ask("moonshotai/int4", { seed, max_tokens: 12, temperature: 1, logprobs: false }).then((r) => r.data.choices[0].message?.content);
    expect(await sample(5)).toBe(await sample(5));
    const texts = new Set(await Promise.all([6, 7, 8, 9].map(sample)));
    expect(texts.size).toBeGreaterThan(1);
  });

  it("an endpoint without logprobs support answers logprobs: null; another template counts more prompt tokens", async () => {
    expect((await ask("siliconflow/int4")).data.choices[0].logprobs).toBeNull();
    const reference = await ask("moonshotai/int4");
    const together = await ask("together");
    expect(together.data.usage.prompt_tokens).toBe(reference.data.usage.prompt_tokens + 7);
  });

  it("novita sometimes answers from DeepInfra; an unknown pin without fallbacks is a 404", async () => {
    const served = new Set<string>();
    for (let seed = 0; seed < 16; seed++) served.add(String((await ask("novita", { seed })).data.provider));
    expect([...served].sort()).toEqual(["DeepInfra", "Novita"]);
    const error = await ask("nobody").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenRouterError);
    expect((error as OpenRouterError).status).toBe(404);
  });

  it("thinks by default: without reasoning disabled, one token of budget is spent thinking", async () => {
    const { data } = await ask("moonshotai/int4", { reasoning: undefined });
    expect(data.choices[0].message?.content).toBe("");
    expect(data.usage.completion_tokens_details?.reasoning_tokens).toBe(1);
  });

  it("a fault aimed at one pinned endpoint: 429 with Retry-After reaches the caller with the wait", async () => {
    await injectFault(replica.url, { kind: "429", path: "chat/completions@fireworks", retryAfter: 3 });
    expect((await ask("moonshotai/int4")).data.provider).toBe("Moonshot AI");
    const error = (await ask("fireworks").catch((e: unknown) => e)) as OpenRouterError;
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(3000);
    expect((await ask("fireworks")).data.provider).toBe("Fireworks");
  });
});
