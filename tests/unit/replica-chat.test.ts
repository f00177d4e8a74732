import { describe, expect, it } from "vitest";
import { CO_BATCHED, completeChat, freshChatState, processedLogprobs, variant, type ChatState } from "@/replica/lm";

// The replica's chat completions in process (completeChat, what the HTTP handler wraps), and the
// sampler against values worked out by hand.

type Entry = { token: string; logprob: number; top_logprobs: Array<{ token: string; logprob: number }> };
type Answer = {
  provider: string;
  choices: Array<{ message: { content: string }; logprobs: { content: Entry[] } | null; finish_reason: string }>;
  usage: { prompt_tokens: number; cost: number; prompt_tokens_details: { cached_tokens: number } };
};

const request = (tag: string, over: Record<string, unknown> = {}) => ({
  model: "moonshotai/kimi-k2.5",
  messages: [{ role: "user", content: "Permission is hereby granted, free of charge, to any person obtaining a copy" }],
  max_tokens: 6,
  temperature: 1,
  logprobs: true,
  top_logprobs: 5,
  reasoning: { enabled: false },
  provider: { only: [tag], allow_fallbacks: false },
  ...over,
});

function ask(state: ChatState, tag: string, over: Record<string, unknown> = {}, nowMs = 0) {
  const answer = completeChat(state, request(tag, over), nowMs);
  return { status: answer.status, body: answer.json as Answer };
}

const probs = (logprobs: Float64Array) => Array.from(logprobs, Math.exp);

describe("the sampler", () => {
  const logits = [2, 1, 0, -1];
  const plain = { temperature: 1, top_p: 1, top_k: 0, min_p: 0, presence_penalty: 0, frequency_penalty: 0 };
  it("top_p keeps the smallest most-likely set reaching it; top_k and min_p cut; all renormalise", () => {
    // softmax: 0.6439, 0.2369, 0.0871, 0.0321
    expect(probs(processedLogprobs(logits, plain))[0]).toBeCloseTo(0.6439, 4);
    const topP = probs(processedLogprobs(logits, { ...plain, top_p: 0.8 }));
    expect(topP[0]).toBeCloseTo(0.7311, 4); // e²/(e²+e)
    expect(topP.slice(2)).toEqual([0, 0]);
    expect(probs(processedLogprobs(logits, { ...plain, top_k: 1 }))).toEqual([1, 0, 0, 0]);
    const minP = probs(processedLogprobs(logits, { ...plain, min_p: 0.1 })); // floor 0.0644
    expect(minP[2]).toBeCloseTo(1 / (Math.E ** 2 + Math.E + 1), 4);
    expect(minP[3]).toBe(0);
  });
  it("temperature 0 is greedy; temperature 0.5 doubles the logits; penalties lower generated tokens", () => {
    expect(probs(processedLogprobs(logits, { ...plain, temperature: 0 }))).toEqual([1, 0, 0, 0]);
    expect(probs(processedLogprobs(logits, { ...plain, temperature: 0.5 }))[1]).toBeCloseTo(Math.E ** 2 / (Math.E ** 4 + Math.E ** 2 + 1 + Math.E ** -2), 4);
    const penalised = probs(processedLogprobs(logits, { ...plain, presence_penalty: 1 }, new Map([[0, 3]])));
    expect(penalised[0]).toBeCloseTo(penalised[1], 10); // logits 1, 1, 0, -1
  });
});

describe("completeChat", () => {
  it("lists logprobs at every generated position; raw ones are the model's, processed ones the sampler's", () => {
    const state = freshChatState();
    const raw = ask(state, "moonshotai/int4", { top_k: 3, seed: 1 }).body;
    const content = raw.choices[0].logprobs?.content ?? [];
    expect(content.length).toBe(raw.choices[0].message.content.length); // one token per character
    expect(content.length).toBeGreaterThan(0);
    for (const e of content) expect(e.top_logprobs).toHaveLength(5); // raw: all tokens, not only the top 3 sampled from
    // baseten/fp4 returns processed logprobs: after top_k 3 only three tokens remain, summing to 1.
    const processed = ask(state, "baseten/fp4", { top_k: 3, seed: 1 }).body.choices[0].logprobs?.content ?? [];
    for (const e of processed) {
      expect(e.top_logprobs).toHaveLength(3);
      expect(e.top_logprobs.reduce((s, t) => s + Math.exp(t.logprob), 0)).toBeCloseTo(1, 10);
    }
  });

  it("a trailing assistant message: continued, answered as a new turn, or refused, per endpoint", () => {
    const state = freshChatState();
    const messages = [
      { role: "user", content: "Copy the licence." },
      { role: "assistant", content: "Permission is hereby gran" },
    ];
    const greedy = { messages, temperature: 0, max_tokens: 3, seed: 1 };
    expect(ask(state, "atlas-cloud/int4", greedy).status).toBe(400);
    // Moonshot continues the word; Chutes closes the message and starts a new turn, so its first
    // token is what the network writes at the start of an answer.
    const continued = ask(state, "moonshotai/int4", greedy).body.choices[0].message.content;
    const newTurn = ask(state, "chutes/int4", greedy).body.choices[0].message.content;
    expect(continued.startsWith("t")).toBe(true);
    expect(newTurn).not.toBe(continued);
  });

  it("reports cached prompt tokens for a prefix seen recently at the endpoint, priced at its cache-read price", () => {
    const state = freshChatState();
    const long = [{ role: "user", content: "The quick brown fox jumps over the lazy dog. ".repeat(20) }];
    const first = ask(state, "parasail/int4", { messages: long, max_tokens: 1 }, 0).body;
    const second = ask(state, "parasail/int4", { messages: long, max_tokens: 1 }, 60_000).body;
    const later = ask(state, "parasail/int4", { messages: long, max_tokens: 1 }, 60_000 + 6 * 60_000).body;
    expect(first.usage.prompt_tokens_details.cached_tokens).toBe(0);
    const cached = second.usage.prompt_tokens_details.cached_tokens;
    expect(cached % 16).toBe(0);
    expect(cached).toBeGreaterThanOrEqual(second.usage.prompt_tokens - 16);
    // Parasail: $0.60/M input, $0.15/M cache read, $2.80/M output; one completion token.
    const expected = ((second.usage.prompt_tokens - cached) * 0.6 + cached * 0.15 + 2.8) / 1e6;
    expect(second.usage.cost).toBeCloseTo(expected, 15);
    expect(later.usage.prompt_tokens_details.cached_tokens).toBe(0); // past the 5-minute TTL
    expect(ask(state, "chutes/int4", { messages: long, max_tokens: 1 }, 60_000).body.usage.prompt_tokens_details.cached_tokens).toBe(0); // no cache there
  });

  it("co-batching: identical requests within the window share one noise draw, later ones do not", () => {
    const state = freshChatState();
    state.overrides["chutes/int4"] = { variant: variant("chutes co-batched", "int4-g32", { nondeterminism: CO_BATCHED }) };
    const top = (seed: number, at: number) => ask(state, "chutes/int4", { seed, max_tokens: 1, temperature: 0 }, at).body.choices[0].logprobs?.content[0].top_logprobs;
    const a = top(1, 1_000);
    expect(top(2, 1_300)).toEqual(a); // another seed, same batch
    expect(top(3, 2_000)).not.toEqual(a); // 1 s later: a new batch
    expect(state.calls.map((c) => c.coBatched)).toEqual([false, true, false]);
  });

  it("requests are validated field by field", () => {
    const state = freshChatState();
    expect(ask(state, "moonshotai/int4", { top_p: 0 })).toMatchObject({ status: 400, body: { error: { message: "top_p must be in (0, 1]" } } });
    expect(ask(state, "moonshotai/int4", { min_p: 2 }).status).toBe(400);
    expect(ask(state, "moonshotai/int4", { messages: [{ role: "tool", content: "x" }] }).status).toBe(400);
  });
});
