import { describe, expect, it } from "vitest";
import { compareLogprobs } from "@/lib/probe/methods/logprobs";
import { PREFILL_MAX_BYTES, prefillOf } from "@/lib/probe/methods/on-policy";
import { describeDivergence } from "@/lib/probe/verdicts";
import type { MethodAnswer } from "@/lib/probe/methods/types";

// On-policy reads on hand-made answers: where a draft is cut, which endpoints' prefilled reads are
// counted (by their prompt tokens), and that those positions move the estimate only when counted.

const top = (entries: Record<string, number>) => Object.entries(entries).map(([token, p]) => ({ token, logprob: Math.log(p) }));

/** One answer: `positions` tokens "a", each position's listed distribution `dist`. */
function answer(role: string, promptIndex: number, sample: number, cut: number, promptTokens: number, dist: Record<string, number>, positions = 3): MethodAnswer {
  return {
    role,
    promptIndex,
    sample,
    cut,
    promptTokens,
    text: "a".repeat(positions),
    tokens: Array.from({ length: positions }, () => ({ token: "a", logprob: Math.log(dist.a), top: top(dist) })),
    topLogprobs: null,
    answeredAt: new Date(1_000 * (sample + 1) + promptIndex),
    cachedTokens: 0,
  };
}

/**
 * The reference's sampled draft of a prompt: 24 tokens "w", each listing only the token ranked
 * first (top_logprobs 1); at position 12, where a cut at its middle makes the reads start, `next`.
 */
function draft(promptIndex: number, next: string): MethodAnswer {
  const tokens = Array.from({ length: 24 }, (_, j) => ({ token: "w", logprob: -0.1, top: [{ token: j === 12 ? next : "w", logprob: -0.1 }] }));
  return { role: "reference-draft", promptIndex, sample: 0, cut: 0, promptTokens: 20, text: "w".repeat(24), tokens, topLogprobs: null, answeredAt: new Date(500), cachedTokens: 0 };
}

const SAME = { a: 0.6, b: 0.3, c: 0.05 };
const MOVED = { a: 0.3, b: 0.6, c: 0.05 };
/** KL(SAME ‖ MOVED) over {a, b, c, rest}: 0.6·ln 2 + 0.3·ln ½ = 0.3·ln 2 (rest and c equal). */
const KL_MOVED = 0.3 * Math.log(2);

/**
 * A run of `prompts` prompts: the reference's 2 + 2 reads from the prompt and after the cut, the
 * endpoint's 2 and 2. The endpoint serves `greedy` from the prompt and `after` after the prefix;
 * its prompt tokens are the reference's plus `templateTokens`, plus `turnTokens` on a prefilled read.
 */
function run(
  prompts: number,
  endpoint: { greedy: Record<string, number>; after: Record<string, number>; templateTokens?: number; turnTokens?: number; cutAnswered?: boolean; turnTokensOn?: number[] },
  /** The reference's drafts: per prompt, the token the draft ranked first where the cut reads start (absent: no drafts). */
  draftNext?: (prompt: number) => string,
  /** What the reference's own reads after the cut list, per prompt and sample (absent: SAME). */
  referenceAfter?: (prompt: number, sample: number) => Record<string, number>,
) {
  const reference: MethodAnswer[] = [];
  const mine: MethodAnswer[] = [];
  for (let i = 0; i < prompts; i++) {
    if (draftNext) reference.push(draft(i, draftNext(i)));
    const plain = 20 + i;
    const prefilled = plain + 6;
    for (const s of [0, 1]) {
      reference.push(answer("reference", i, s, 0, plain, SAME), answer("reference-repeat", i, s, 0, plain, SAME));
      const after = referenceAfter?.(i, s) ?? SAME;
      reference.push(answer("reference", i, s, 1, prefilled, after), answer("reference-repeat", i, s, 1, prefilled, after));
      mine.push(answer("endpoint", i, s, 0, plain + (endpoint.templateTokens ?? 0), endpoint.greedy));
      const turn = endpoint.turnTokensOn && !endpoint.turnTokensOn.includes(i) ? 0 : (endpoint.turnTokens ?? 0); // only on the prompts listed, when listed
      if (endpoint.cutAnswered !== false) mine.push(answer("endpoint", i, s, 1, prefilled + (endpoint.templateTokens ?? 0) + turn, endpoint.after));
    }
  }
  return compareLogprobs(reference, mine, 1e-3);
}

describe("where a draft is cut", () => {
  const draft = (tokens: string[], reasoningTokens: number | null = null) => ({ tokens: tokens.map((token) => ({ token, logprob: -1 })), reasoningTokens });

  it("at the middle of its own tokens, never inside one", () => {
    expect(prefillOf(draft(["The", " cat", " sat", " on", " the", " mat"]), 1)).toBe("The cat sat");
    expect(prefillOf(draft(["One", " two", " three"]), 1)).toBe("One");
    // With two cuts, the first at a third and the second at two thirds.
    expect(prefillOf(draft(["a", "b", "c", "d", "e", "f"]), 1, 2)).toBe("ab");
    expect(prefillOf(draft(["a", "b", "c", "d", "e", "f"]), 2, 2)).toBe("abcd");
  });

  it("within the bytes the cost cap counted, and nothing when the draft cannot be cut", () => {
    const long = Array.from({ length: 24 }, () => "é".repeat(20)); // 40 bytes a token
    const prefix = prefillOf(draft(long), 1);
    expect(prefix).toBe("é".repeat(20 * 6)); // 12 tokens would be 480 bytes: 6 (240) fit in 256
    expect(new TextEncoder().encode(prefix ?? "").length).toBeLessThanOrEqual(PREFILL_MAX_BYTES);
    expect(prefillOf(draft(["x"]), 1)).toBeNull(); // under two tokens
    expect(prefillOf(draft(["  ", " ", "\n", "\n"]), 1)).toBeNull(); // only white space
    expect(prefillOf(draft(["a", "b", "c", "d"], 5), 1)).toBeNull(); // it reasoned
    expect(prefillOf({ tokens: null }, 1)).toBeNull(); // no tokens listed
  });
});

describe("which prefilled reads are counted", () => {
  it("an endpoint that continues the prefix: its on-policy positions count, and a difference there shows", () => {
    const d = run(12, { greedy: SAME, after: MOVED });
    expect(d?.prefill).toBe("continues");
    expect(d?.positions).toBe(12 * 6);
    expect(d?.onPolicyPositions).toBe(12 * 3);
    // Half of each prompt's positions moved by KL_MOVED: the prompt's mean is half of it.
    expect(d?.klNats.estimate).toBeCloseTo(KL_MOVED / 2, 10);
  });

  it("another template adds the same tokens with and without the prefix: still a continuation", () => {
    const d = run(12, { greedy: SAME, after: SAME, templateTokens: 7 });
    expect(d?.prefill).toBe("continues");
    expect(d?.onPolicyPositions).toBe(12 * 3);
    expect(d?.klNats.estimate).toBeCloseTo(0, 12);
  });

  it("an endpoint that answers the prefix as a new turn counts more tokens there: read on the greedy path only", () => {
    // Its reads after the prefix are the start of a new message (here: another distribution),
    // which must not count as a difference of the model.
    const d = run(12, { greedy: SAME, after: MOVED, turnTokens: 3 });
    expect(d?.prefill).toBe("new-turn");
    expect(d?.onPolicyPositions).toBe(0);
    expect(d?.positions).toBe(12 * 3);
    expect(d?.klNats.estimate).toBeCloseTo(0, 12);
  });

  it("one prompt whose count moved does not make a continuing endpoint a new turn: that prompt's prefilled reads are left out, the others count", () => {
    const d = run(12, { greedy: SAME, after: MOVED, turnTokens: 1, turnTokensOn: [5] });
    expect(d?.prefill).toBe("continues");
    expect(d?.prefillLeftOut).toBe(1);
    expect(d?.onPolicyPositions).toBe(11 * 3);
    expect(d?.positions).toBe(12 * 3 + 11 * 3);
    // Eleven prompts' means are half KL_MOVED, the twelfth's (greedy only) is 0.
    expect(d?.klNats.estimate).toBeCloseTo((11 * KL_MOVED) / 2 / 12, 10);
    expect(describeDivergence(d!)).toContain("33 of them on-policy (after the reference's sampled continuation); the prefilled reads of 1 prompt left out: their prompt tokens moved as a new turn's would");
  });

  it("the A/A is read on the endpoint's reads: a prompt whose prefilled reads are left out leaves the A/A's too", () => {
    // The reference's own reads after the cut of prompt 5 move between its early answers (sample 0)
    // and its late ones (sample 1): the A/A sees that wherever it reads them.
    const unsteady = (i: number, s: number) => (i === 5 && s === 1 ? MOVED : SAME);
    const leftOut = run(12, { greedy: SAME, after: MOVED, turnTokens: 1, turnTokensOn: [5] }, undefined, unsteady);
    expect(leftOut?.prefillLeftOut).toBe(1);
    expect(leftOut?.aaKlNats.estimate).toBeCloseTo(0, 12);
    const readAll = run(12, { greedy: SAME, after: MOVED }, undefined, unsteady);
    expect(readAll?.prefillLeftOut).toBeUndefined();
    expect(readAll?.aaKlNats.estimate).toBeGreaterThan(1e-3);
  });

  it("a new-turn endpoint whose count happens to agree on a prompt is still a new turn: read on the greedy path only", () => {
    const d = run(12, { greedy: SAME, after: MOVED, turnTokens: 3, turnTokensOn: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] });
    expect(d?.prefill).toBe("new-turn");
    expect(d?.prefillLeftOut).toBeUndefined();
    expect(d?.onPolicyPositions).toBe(0);
    expect(d?.klNats.estimate).toBeCloseTo(0, 12);
  });

  // The reference's reads after the cut rank "a" first (SAME): a reference that continues its draft
  // ranked "a" first there too.
  it("a reference whose reads after the cut start where its draft stood continues: the endpoints are read on-policy", () => {
    const d = run(12, { greedy: SAME, after: MOVED }, () => "a");
    expect(d?.referencePrefill).toEqual({ verdict: "continues", agreed: 12, compared: 12 });
    expect(d?.prefill).toBe("continues");
    expect(d?.onPolicyPositions).toBe(12 * 3);
  });

  it("a near tie flipped on some prompts still continues: at least half the prompts agree", () => {
    const d = run(12, { greedy: SAME, after: SAME }, (i) => (i < 6 ? "a" : "b"));
    expect(d?.referencePrefill).toEqual({ verdict: "continues", agreed: 6, compared: 12 });
    expect(d?.prefill).toBe("continues");
  });

  it("a reference that answers the prefix as a new turn: no endpoint is read on-policy, and the reason says why", () => {
    // Its reads after the prefix start another message: not the token its draft ranked first there.
    const d = run(12, { greedy: SAME, after: MOVED }, (i) => (i === 3 ? "a" : "z"));
    expect(d?.referencePrefill).toEqual({ verdict: "new-turn", agreed: 1, compared: 12 });
    expect(d?.prefill).toBe("reference-new-turn");
    expect(d?.onPolicyPositions).toBe(0);
    expect(d?.positions).toBe(12 * 3);
    expect(d?.klNats.estimate).toBeCloseTo(0, 12);
    expect(describeDivergence(d!)).toContain(
      "no on-policy positions: the reference answers a prefilled assistant message as a new turn (the token it ranked first after the prefix was its own draft's on 1 of 12 prompts)",
    );
  });

  it("with under five prompts compared the reference is not checked, and the endpoint's own reads decide", () => {
    const d = run(4, { greedy: SAME, after: SAME }, () => "z");
    expect(d?.referencePrefill).toEqual({ verdict: "not-checked", agreed: 0, compared: 4 });
    expect(d?.prefill).toBe("continues");
  });

  it("an endpoint with no prefilled read answered: not read, the greedy path alone", () => {
    const d = run(12, { greedy: MOVED, after: MOVED, cutAnswered: false });
    expect(d?.prefill).toBe("not-read");
    expect(d?.onPolicyPositions).toBe(0);
    expect(d?.klNats.estimate).toBeCloseTo(KL_MOVED, 10);
  });
});
