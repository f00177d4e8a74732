import Decimal from "decimal.js";
import type { PlanEndpoint } from "../lib/probe/plan";
import type { ProbePrompt } from "../lib/probe/prompts";
import type { EndpointResult } from "../lib/probe/results";
import type { ProbeModelSettings } from "../lib/probe/settings";
import { chatBehaviour, freshChatState, type ChatState } from "./chat";
import { kimiK25 } from "./data/kimi-k2.5";
import { BENCH_VARIANTS, KIMI_K25_SAMPLER, trueKl, type LmVariant } from "./lm";
import { runProbeInProcess } from "./probe-harness";

// The endpoints the bench puts behind the replica, and each one's true divergence from the
// reference. The world is the replica's real network (replica/lm): the reference serves the
// released INT4-g32 weights with per-call batch noise (as moonshotai/int4 does in the replica);
// each variant serves a real number format or the same weights with other numerics and
// nondeterminism. The true KL comes from replica/lm's trueKl (expected distributions, held-out and
// on-policy positions), computed apart from the probe.

export interface BenchVariant {
  name: string;
  variant: LmVariant;
  trueKlNats: number;
  /** Serves the reference's weights (only its numerics or noise differ). */
  sameWeights: boolean;
}

export function benchVariants(): BenchVariant[] {
  const reference = chatBehaviour("moonshotai/int4").variant;
  return BENCH_VARIANTS.map((variant) => ({
    name: variant.name,
    variant,
    trueKlNats: trueKl(variant, reference, KIMI_K25_SAMPLER).klNats,
    sameWeights: variant.weights === reference.weights,
  }));
}

function planEndpoint(p: (typeof kimiK25.providers)[number]): PlanEndpoint {
  return { tag: p.tag, provider: p.provider, inputPricePerM: p.inputPerM, outputPricePerM: p.outputPerM, supportsLogprobs: true };
}

/** The reference and every other Kimi endpoint of the replica as a slot that serves a variant with raw logprobs, its own template, pinned. */
export function benchEndpoints(): {
  world: string;
  reference: PlanEndpoint;
  endpoints: PlanEndpoint[];
  assign(group: BenchVariant[]): { state: ChatState; endpoints: PlanEndpoint[] };
} {
  const reference = planEndpoint(kimiK25.providers.find((p) => p.tag === "moonshotai/int4") as (typeof kimiK25.providers)[number]);
  const endpoints = kimiK25.providers.filter((p) => p.tag !== reference.tag).map(planEndpoint);
  return {
    world: "the replica's network (replica/lm: a character-level MLP, 102 tokens), the reference moonshotai/int4 serving the INT4-g32 release with per-call logit noise sd 0.01",
    reference,
    endpoints,
    assign(group) {
      const state = freshChatState();
      const used = endpoints.slice(0, group.length);
      used.forEach((e, i) => {
        state.overrides[e.tag] = { variant: group[i].variant, logprobs: true, logprobsKind: "raw", extraTemplateTokens: 0, fallback: undefined, prefill: "continue" };
      });
      return { state, endpoints: used };
    },
  };
}

/**
 * One run over all 11 of Kimi K2.5's recorded endpoints, as the replica serves them (the reference
 * and 10 others); `state` sets behaviours of the replica's own (a reference that answers a prefill
 * as a new turn, say).
 */
export function kimiDefaultRun(prompts: ProbePrompt[], settings: ProbeModelSettings, state: ChatState = freshChatState()): { endpoints: number; requests: number; skipped: number; costUsd: string; spanMs: number; results: EndpointResult[] } {
  const all = kimiK25.providers.map((p) => ({ ...planEndpoint(p), supportsLogprobs: chatBehaviour(p.tag).logprobs }));
  const reference = all.find((e) => e.tag === "moonshotai/int4") as PlanEndpoint;
  const endpoints = all.filter((e) => e !== reference);
  const out = runProbeInProcess({ modelId: "moonshotai/kimi-k2.5", prompts, reference, endpoints, state, seed: 1, deltaNats: settings.deltaNats, sampler: settings.sampler });
  return { endpoints: endpoints.length, requests: out.requests, skipped: out.skipped, costUsd: new Decimal(out.costUsd).toFixed(4), spanMs: out.spanMs, results: out.results };
}
