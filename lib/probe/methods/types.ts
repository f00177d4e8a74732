import type { ChatRequest } from "../../openrouter/chat-schemas";
import type { Interval } from "../divergence";
import type { SamplerSettings } from "../settings";

// What every comparison method of the fidelity probe provides. One module per method under
// lib/probe/methods/; the list in ./index.ts is the only place that names them all, so a new
// method is one new file and one line there.

export interface MethodEndpoint {
  tag: string;
  supportsLogprobs: boolean;
}

/** One stored answer as the methods read it (a row of ProbeRequest, already filtered to valid ones). */
export interface MethodAnswer {
  role: string;
  promptIndex: number;
  sample: number;
  text: string | null;
  /** The generated tokens: [{token, logprob, top?: [{token, logprob}]}] (top at every position since this version). */
  tokens: unknown;
  /** The first position's top logprobs (all that runs before this version kept). */
  topLogprobs: unknown;
  answeredAt: Date | null;
  cachedTokens: number | null;
  /** 0 (or absent): read from the prompt; n ≥ 1: read after cut n of the prompt's reference draft (on-policy). */
  cut?: number;
  /** usage.prompt_tokens (the on-policy reads compare them to recognise an endpoint that does not continue a prefix). */
  promptTokens?: number | null;
}

export interface PlanShape {
  /** Requests per prompt for each probed endpoint. */
  perPrompt: number;
  /** Requests per prompt for the reference in each of its two roles (reference, reference-repeat). */
  referencePerRole: number;
  maxTokens: number;
  /**
   * On-policy reads (./on-policy.ts): per prompt one sampled draft of the reference with
   * `draftTokens`, then at each of `cuts` cut points the same replicates as above, reading
   * `readTokens` after the prefilled prefix.
   */
  onPolicy?: { draftTokens: number; cuts: number; readTokens: number };
}

/**
 * What an endpoint did with a trailing assistant message (the on-policy reads, ./on-policy.ts);
 * "reference-new-turn": the reference itself answered it as a new turn, so no endpoint is read on-policy.
 */
export type PrefillBehaviour = "continues" | "new-turn" | "refused" | "not-read" | "reference-new-turn";

/**
 * Whether the reference continues a prefilled prefix: on how many prompts the token its reads after
 * the cut ranked first was the one its own draft ranked first at that position (./logprobs.ts).
 */
export interface ReferencePrefill {
  verdict: "continues" | "new-turn" | "not-checked";
  agreed: number;
  compared: number;
}

/** How a side's logprobs look: raw (the model's), processed (after temperature / top-p / renormalising), or unknown. */
export type LogprobsKind = "raw" | "processed" | "unknown";

/**
 * The result shape of an equivalence method: the divergence between the two sides' expected
 * next-token distributions, in nats per token (KL) and TV, with 95% intervals over prompts.
 */
export interface DivergenceEvidence {
  deltaNats: number;
  /** The two-sided level of klNats's and tv's intervals: 0.95, or a sequential run's look's 1 − α_j. */
  confidence: number;
  /** Mean per-token KL(reference ‖ endpoint), bias-corrected, with its t-interval over prompts. */
  klNats: Interval;
  /** Mean TV between the expected distributions (plug-in), with its interval at the same level. */
  tv: Interval;
  /** The reference's early replicates against its late ones by the same statistic (A/A). */
  aaKlNats: Interval;
  aaTv: number;
  /** The A/A's lower bound is above Δ/4: the reference moved during the run. */
  referenceUnstable: boolean;
  /** The smallest true KL this run calls `differs` with 80% power. */
  detectableNats: number;
  /** In a sequential run (lib/probe/sequential.ts), the look that decided: look `at` of `of`, after `prompts` planned prompts. */
  look?: { at: number; of: number; prompts: number } | null;
  /** One-sided p-value of H0 "KL ≤ Δ" (t-test over prompts). */
  pValueAboveDelta: number;
  /** One-sided p-value of H0 "KL ≤ 0" (its null calibration is what the tests check). */
  pValueAboveZero: number;
  top1Agreement: number;
  positions: number;
  prompts: number;
  logprobs: { reference: LogprobsKind; endpoint: LogprobsKind };
  /** Prompt tokens the endpoint reported as served from its cache, over the compared answers. */
  cachedTokens: number;
  /** Of `positions`, those read after the reference's sampled continuation (on-policy). */
  onPolicyPositions?: number;
  /** What the endpoint did with the prefilled continuation (absent: a method or run without on-policy reads). */
  prefill?: PrefillBehaviour;
  /** Prompts of an endpoint that continues whose prefilled reads were left out: their prompt tokens moved as a new turn's would. */
  prefillLeftOut?: number;
  /** The reference's own check (absent: a run without drafts). */
  referencePrefill?: ReferencePrefill;
}

export interface MethodTest {
  method: string;
  promptsCompared: number;
  /** Present when the method measured the divergence; absent means it cannot (unverifiable). */
  divergence: DivergenceEvidence | null;
  /** What the method found when it cannot measure the divergence (shown in the reason). */
  note?: string;
}

export interface CompareInput {
  runId: number;
  deltaNats: number;
  /** Two-sided level of the interval (default 0.95). */
  confidence?: number;
  /** The reference's answers for this method, both roles. */
  reference: MethodAnswer[];
  endpoint: MethodAnswer[];
}

export interface BodySettings {
  topLogprobs: number;
  sampler: SamplerSettings;
}

export type MethodBody = Pick<ChatRequest, "temperature"> & Partial<Pick<ChatRequest, "logprobs" | "top_logprobs" | "top_p" | "top_k" | "min_p" | "presence_penalty" | "frequency_penalty">>;

export interface ProbeMethodDefinition<Name extends string = string> {
  name: Name;
  /** Plain words for the page and docs/probe.md. */
  title: string;
  /** Whether this method can compare the endpoint with the reference (the first that can is used). */
  applies(reference: MethodEndpoint, endpoint: MethodEndpoint): boolean;
  plan(settings: { samplesPerPrompt: number; sampleMaxTokens: number }): PlanShape;
  /** The fields of the chat request this method sets. */
  body(settings: BodySettings): MethodBody;
  /** The fields of the reference's draft request (methods with on-policy reads). */
  draftBody?(settings: BodySettings): MethodBody;
  compare(input: CompareInput): MethodTest | null;
}
