import type { DivergenceEvidence, MethodAnswer, PrefillBehaviour } from "./types";

// On-policy positions: the positions the drafter is trained on are the model's own sampled text
// at the pipeline's sampler, not the greedy path. For every prompt the reference samples one
// continuation at the run's sampler (the "draft", role `reference-draft`); the continuation is cut
// at its middle (a token boundary of the reference's own tokens) and sent as a trailing assistant
// message to both sides, which read on from there on their greedy paths with the top logprobs at
// every position. The first position read is the reference's sampled prefix's next token.
//
// An endpoint that answers a trailing assistant message as a new turn reads another position
// altogether (the start of a new message). It is recognised by its prompt tokens: it adds its
// template's turn tokens, so its count on the prefilled requests moves away from the reference's
// by more than on the same prompt without the prefix. Its on-policy readings are then left out
// (and said); one that refuses the message (a 400) has none. Decided per prompt and then by the
// majority (lib/probe/methods/logprobs.ts): a continuing endpoint keeps its on-policy readings
// but for the prompts whose counts moved.
//
// The reference is checked too, by another sign (its prompt tokens have nothing to be compared
// with): its reads after the cut must start where its draft stood, so the token they rank first
// must be the one its draft ranked first at that position, on most prompts. A reference that
// answers the prefix as a new turn leaves every endpoint without on-policy positions (said).

export const DRAFT_ROLE = "reference-draft";
/** Tokens of the reference's sampled continuation. */
export const DRAFT_TOKENS = 24;
/** Cut points per prompt (cut 1 is the middle of the draft). */
export const ON_POLICY_CUTS = 1;
/** Greedy tokens read after the prefix. */
export const ON_POLICY_READ_TOKENS = 8;
/** The prefix sent is at most this many UTF-8 bytes (the cost cap's worst case counts it). */
export const PREFILL_MAX_BYTES = 256;

/** Stored as the error of a prefilled read that was never sent because its prompt had no usable draft. */
export const NO_DRAFT_ERROR = "Not sent: the reference's sampled continuation for this prompt failed or was too short to cut";

export type { PrefillBehaviour };

/**
 * The assistant prefix for a cut of a stored draft: its first ⌊L·cut/(cuts+1)⌋ tokens (L the
 * draft's tokens), fewer while the text is over PREFILL_MAX_BYTES; null when the draft is unusable
 * (no tokens listed, under two tokens, or it reasoned).
 */
export function prefillOf(draft: Pick<MethodAnswer, "tokens"> & { reasoningTokens?: number | null }, cut: number, cuts = ON_POLICY_CUTS): string | null {
  const tokens = prefixTokens(draft, cut, cuts);
  return tokens && tokens.join("");
}

/** The draft's tokens that make the prefix of a cut (prefillOf), or null when it has none. */
export function prefixTokens(draft: Pick<MethodAnswer, "tokens"> & { reasoningTokens?: number | null }, cut: number, cuts = ON_POLICY_CUTS): string[] | null {
  if (draft.reasoningTokens && draft.reasoningTokens > 0) return null;
  if (!Array.isArray(draft.tokens)) return null;
  const tokens: string[] = [];
  for (const t of draft.tokens) {
    const token = typeof t === "object" && t !== null ? (t as { token?: unknown }).token : undefined;
    if (typeof token !== "string") break;
    tokens.push(token);
  }
  let n = Math.floor((tokens.length * cut) / (cuts + 1));
  while (n > 0 && utf8Bytes(tokens.slice(0, n).join("")) > PREFILL_MAX_BYTES) n--;
  if (n < 1) return null;
  const prefix = tokens.slice(0, n);
  return prefix.join("").trim().length === 0 ? null : prefix;
}

const encoder = new TextEncoder();
export const utf8Bytes = (text: string) => encoder.encode(text).length;

/** Plain words for an endpoint's on-policy reads, for a verdict's reason. */
export function describeOnPolicy(d: Pick<DivergenceEvidence, "prefill" | "onPolicyPositions" | "prefillLeftOut" | "referencePrefill">): string {
  const leftOut = d.prefillLeftOut ?? 0;
  switch (d.prefill) {
    case "continues":
      return `${d.onPolicyPositions ?? 0} of them on-policy (after the reference's sampled continuation)${
        leftOut > 0 ? `; the prefilled reads of ${leftOut} prompt${leftOut === 1 ? "" : "s"} left out: their prompt tokens moved as a new turn's would` : ""
      }`;
    case "new-turn":
      return "no on-policy positions: the endpoint answers a prefilled assistant message as a new turn (its prompt tokens count one more turn than the reference's)";
    case "reference-new-turn": {
      const check = d.referencePrefill;
      return `no on-policy positions: the reference answers a prefilled assistant message as a new turn${
        check ? ` (the token it ranked first after the prefix was its own draft's on ${check.agreed} of ${check.compared} prompts)` : ""
      }`;
    }
    case "refused":
      return "no on-policy positions: the endpoint refused a prefilled assistant message";
    case "not-read":
      return "no on-policy positions were read";
    default:
      return "";
  }
}
