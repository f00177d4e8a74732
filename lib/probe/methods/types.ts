import type Decimal from "decimal.js";
import type { ChatRequest } from "../../openrouter/chat-schemas";

// What every comparison method of the fidelity probe provides. One module per method under
// lib/probe/methods/; the list in ./index.ts is the only place that names them all, so a new
// method is one new file and one line there.

export interface MethodEndpoint {
  tag: string;
  supportsLogprobs: boolean;
}

/** One stored answer as the methods read it (a row of ProbeRequest, already filtered to valid ones). */
export interface MethodAnswer {
  promptIndex: number;
  sample: number;
  text: string | null;
  tokens: unknown;
  topLogprobs: unknown;
}

export interface PlanShape {
  /** Requests per prompt and side (the reference makes this many twice: reference and repeat). */
  perPrompt: number;
  maxTokens: number;
}

/** What a method's comparison of one endpoint found, in the method's own unit. */
export interface MethodTest {
  method: string;
  statistic: number;
  noiseFloor: number;
  pValue: number;
  promptsCompared: number;
  detectableEffect: number;
  noiseRejected?: boolean;
}

export interface CompareInput {
  runId: number;
  /** Level for one endpoint's detectable effect (Bonferroni over the run's endpoints). */
  level: number;
  alpha: number;
  reference: MethodAnswer[];
  referenceRepeat: MethodAnswer[];
  endpoint: MethodAnswer[];
}

export interface ProbeMethodDefinition<Name extends string = string> {
  name: Name;
  /** Plain words for the page and the README. */
  title: string;
  /** Whether this method can compare the endpoint with the reference (the first that can is used). */
  applies(reference: MethodEndpoint, endpoint: MethodEndpoint): boolean;
  plan(settings: { samplesPerPrompt: number; sampleMaxTokens: number }): PlanShape;
  /** The fields of the chat request this method sets. */
  body(settings: { topLogprobs: number }): Pick<ChatRequest, "temperature"> & Partial<Pick<ChatRequest, "logprobs" | "top_logprobs">>;
  compare(input: CompareInput): MethodTest | null;
  /** How the statistic is named in a verdict's reason, e.g. "TV". */
  statisticName: string;
  /** Words for the detectable effect in a `matches` reason. */
  describeDetectable(detectable: number, level: number): string;
}

export type CostOf = (promptTokens: number, completionTokens: number) => Decimal;
