import { hashString, normal, seededRandom } from "../lib/probe/random";

// A small deterministic "language model" behind the replica's chat completions: for every prompt
// and prefix it has fixed next-token logits over a small vocabulary, derived from a hash of the
// prompt. A faithful endpoint serves these logits with a little run-to-run noise (servers are not
// bit-deterministic); a "re-quantized" endpoint serves a perturbed copy (the same perturbation
// every time: its weights differ). The same model drives the statistics' unit tests and the
// benchmark, so what they measure is what the replica serves.

export const VOCABULARY = [
  " the", " a", " of", " to", " and", " in", " is", " that", " it", " for", " on", " with", " as", " be",
  " this", " by", " we", " can", " function", " return", " value", " =", " +", " x", " n", " 1", " 2",
  " 0", "(", ")", ":", ".", ",", "\n", " Paris", " answer", " first", " then", " so", " if", " not",
  " The", " In", " To", " Let", " We", " result", " number", " list", " code", " sum", " step", " model",
  " data", " time", " one", " two", " three", " because", " which", " are", " has", " each", "!",
];

export interface ModelVariant {
  /** Standard deviation of the fixed logit perturbation (0 = the model's own weights). */
  perturbation: number;
  /** Names the perturbation, so two re-quantized endpoints differ from each other too. */
  variantKey: string;
  /** Standard deviation of the fresh per-call logit noise. */
  runNoise: number;
}

export const FAITHFUL: ModelVariant = { perturbation: 0, variantKey: "original", runNoise: 0.05 };

const LOGIT_SCALE = 2.5;

/** The model's own logits for a prompt (its key) after a prefix of generated tokens. */
export function baseLogits(promptKey: string, prefix: readonly number[]): number[] {
  const random = seededRandom(hashString(`${promptKey}\u0000${prefix.join(",")}`));
  return VOCABULARY.map(() => LOGIT_SCALE * normal(random));
}

/** The logits one call of an endpoint sees: the model's, its fixed perturbation, and fresh noise. */
export function servedLogits(promptKey: string, prefix: readonly number[], variant: ModelVariant, callRandom: () => number): number[] {
  const base = baseLogits(promptKey, prefix);
  const perturb = variant.perturbation > 0 ? seededRandom(hashString(`${variant.variantKey}\u0000${promptKey}\u0000${prefix.join(",")}`)) : null;
  return base.map((logit) => logit + (perturb ? variant.perturbation * normal(perturb) : 0) + variant.runNoise * normal(callRandom));
}

/** Log-softmax of logits at a temperature (temperature 0 is treated as 1 for the returned logprobs). */
export function logSoftmax(logits: number[], temperature = 1): number[] {
  const t = temperature > 0 ? temperature : 1;
  const scaled = logits.map((l) => l / t);
  const max = Math.max(...scaled);
  const logSum = max + Math.log(scaled.reduce((s, l) => s + Math.exp(l - max), 0));
  return scaled.map((l) => l - logSum);
}

export interface TokenChoice {
  index: number;
  token: string;
  logprob: number;
}

/** The k most likely tokens, most likely first. */
export function topTokens(logprobs: number[], k: number): TokenChoice[] {
  return logprobs
    .map((logprob, index) => ({ index, token: VOCABULARY[index], logprob }))
    .sort((a, b) => b.logprob - a.logprob || a.index - b.index)
    .slice(0, k);
}

export interface GeneratedToken {
  token: string;
  logprob: number;
  top: TokenChoice[];
}

/**
 * Generates up to maxTokens tokens: greedy at temperature 0, else sampled from the tempered
 * distribution with callRandom. Each step's logprobs are returned untempered, as most servers do.
 */
export function generate(
  promptKey: string,
  variant: ModelVariant,
  { maxTokens, temperature, topK, callRandom }: { maxTokens: number; temperature: number; topK: number; callRandom: () => number },
): GeneratedToken[] {
  const prefix: number[] = [];
  const out: GeneratedToken[] = [];
  for (let step = 0; step < maxTokens; step++) {
    const logits = servedLogits(promptKey, prefix, variant, callRandom);
    const logprobs = logSoftmax(logits);
    let chosen: number;
    if (temperature <= 0) {
      chosen = topTokens(logprobs, 1)[0].index;
    } else {
      const tempered = logSoftmax(logits, temperature).map(Math.exp);
      let u = callRandom();
      chosen = tempered.length - 1;
      for (let i = 0; i < tempered.length; i++) {
        u -= tempered[i];
        if (u <= 0) {
          chosen = i;
          break;
        }
      }
    }
    prefix.push(chosen);
    out.push({ token: VOCABULARY[chosen], logprob: logprobs[chosen], top: topTokens(logprobs, topK) });
  }
  return out;
}

/** The replica's tokenizer count: about four characters a token, plus a template's tokens per message. */
export function countPromptTokens(messages: Array<{ role: string; content: string }>, extraTemplateTokens = 0): number {
  let tokens = 3 + extraTemplateTokens;
  for (const m of messages) tokens += 4 + Math.ceil(m.content.length / 4);
  return tokens;
}
