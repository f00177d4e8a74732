import "server-only";
import Decimal from "decimal.js";
import { z } from "zod";
import type { Db } from "../db/engines";
import { createInChunks } from "../db/one-connection";
import { latestProviders, type ProviderRow } from "../queries/providers";
import { authorEndpoint } from "../rules/author-endpoint";
import type { ProbeMethod } from "./methods";
import type { DivergenceEvidence, LogprobsKind } from "./methods/types";
import type { PrefillBehaviour } from "./methods/on-policy";
import { DEFAULT_PLAN_SETTINGS, orderForSending, planProbe, requestSeed, type PlanEndpoint } from "./plan";
import { hashString } from "./random";
import { orderInWaves, sequentialDesign } from "./sequential";
import { readProbeSettings } from "./model-settings";
import { samplerOfRun, type SamplerSettings } from "./settings";
import { resolvePromptSet } from "./prompt-sets";

// Creating, reading and cancelling probe runs: what the API routes and the page call.

export const probeInputSchema = z.object({
  reference: z.string().min(1).max(100).optional(),
  endpoints: z.array(z.string().min(1).max(100)).min(1).max(50).optional(),
  prompts: z.union([z.literal("builtin"), z.object({ id: z.number().int().positive() })]).optional(),
  maxCostUsd: z
    .string()
    .regex(/^\d{1,6}(\.\d{1,6})?$/, "must be a decimal string of dollars, e.g. \"2.00\"")
    // Only a readable amount is checked here; an unreadable one already has the regex's message.
    .refine((v) => !/^\d+(\.\d+)?$/.test(v) || new Decimal(v).greaterThan(0), "must be more than 0"),
});
export type ProbeInput = z.infer<typeof probeInputSchema>;

export const DEFAULT_MAX_COST_USD = "2.00";
export const PROBE_ALPHA = 0.01;
export const ACTIVE_STATUSES = ["queued", "running"] as const;

export function supportsLogprobs(e: Pick<ProviderRow, "supportedParameters">): boolean {
  return e.supportedParameters.includes("logprobs") && e.supportedParameters.includes("top_logprobs");
}

function planEndpoint(e: ProviderRow): PlanEndpoint | null {
  if (e.inputPricePerM === null || e.outputPricePerM === null) return null;
  return { tag: e.tag, provider: e.provider, inputPricePerM: e.inputPricePerM, outputPricePerM: e.outputPricePerM, supportsLogprobs: supportsLogprobs(e) };
}

export type CreateOutcome =
  | { kind: "created"; run: RunView }
  | { kind: "not-found"; message: string }
  | { kind: "bad"; message: string }
  | { kind: "over-cap"; message: string; estimateUsd: string }
  | { kind: "busy"; message: string };

export interface Estimate {
  reference: string | null;
  endpoints: string[];
  estimateUsd: string;
  requests: number;
  promptCount: number;
}

type Choice = { ok: true; reference: PlanEndpoint; endpoints: PlanEndpoint[] } | { ok: false; kind: "not-found" | "bad"; message: string };

async function choose(db: Db, modelId: string, input: Pick<ProbeInput, "reference" | "endpoints">): Promise<Choice & { demo?: boolean }> {
  const snapshot = await latestProviders(db, modelId);
  if (!snapshot) return { ok: false, kind: "not-found", message: `Model ${modelId} is not watched` };
  if (snapshot.endpoints.length === 0) return { ok: false, kind: "bad", message: "The model has no endpoints yet: poll it first" };
  const byTag = new Map(snapshot.endpoints.map((e) => [e.tag, e]));
  const referenceTag = input.reference ?? authorEndpoint(modelId, snapshot.endpoints)?.tag ?? null;
  if (!referenceTag) return { ok: false, kind: "bad", message: `reference: the model's author has no endpoint of its own; pick one of ${[...byTag.keys()].join(", ")}` };
  const referenceRow = byTag.get(referenceTag);
  if (!referenceRow) return { ok: false, kind: "bad", message: `reference: ${referenceTag} is not an endpoint of ${modelId}` };
  const reference = planEndpoint(referenceRow);
  if (!reference) return { ok: false, kind: "bad", message: `reference: ${referenceTag} has no price, so its cost cannot be bounded` };
  const tags = input.endpoints ?? snapshot.endpoints.filter((e) => e.status === 0 && e.tag !== referenceTag).map((e) => e.tag);
  const endpoints: PlanEndpoint[] = [];
  for (const tag of new Set(tags)) {
    if (tag === referenceTag) continue;
    const row = byTag.get(tag);
    if (!row) return { ok: false, kind: "bad", message: `endpoints: ${tag} is not an endpoint of ${modelId}` };
    const planned = planEndpoint(row);
    if (!planned) return { ok: false, kind: "bad", message: `endpoints: ${tag} has no price, so its cost cannot be bounded` };
    endpoints.push(planned);
  }
  if (endpoints.length === 0) return { ok: false, kind: "bad", message: "endpoints: nothing to probe besides the reference" };
  return { ok: true, reference, endpoints, demo: snapshot.demo };
}

/** What a run would cost, before anything is sent (the page shows it as the user picks). */
export async function estimateProbe(db: Db, modelId: string, input: Pick<ProbeInput, "reference" | "endpoints" | "prompts">): Promise<Estimate | { error: string; kind: "not-found" | "bad" }> {
  const chosen = await choose(db, modelId, input);
  if (!chosen.ok) return { error: chosen.message, kind: chosen.kind };
  const prompts = await resolvePromptSet(db, input.prompts ?? "builtin");
  if (!prompts) return { error: "prompts: no uploaded prompt set with that id", kind: "bad" };
  const plan = planProbe(prompts.prompts, chosen.reference, chosen.endpoints);
  return {
    reference: chosen.reference.tag,
    endpoints: chosen.endpoints.map((e) => e.tag),
    estimateUsd: money(plan.estimateUsd),
    requests: plan.requests.length,
    promptCount: prompts.prompts.length,
  };
}

/** Thrown inside createProbeRun's transaction when the model already has an active run. */
class AnotherRunActive extends Error {}

/** `scheduledBy`: why the scheduled re-probe queued the run (lib/probe/schedule.ts); absent for a run started by hand. */
export async function createProbeRun(db: Db, modelId: string, input: ProbeInput, options: { scheduledBy?: string } = {}): Promise<CreateOutcome> {
  const chosen = await choose(db, modelId, input);
  if (!chosen.ok) return { kind: chosen.kind, message: chosen.message };
  const prompts = await resolvePromptSet(db, input.prompts ?? "builtin");
  if (!prompts) return { kind: "bad", message: "prompts: no uploaded prompt set with that id" };
  const plan = planProbe(prompts.prompts, chosen.reference, chosen.endpoints);
  const cap = new Decimal(input.maxCostUsd);
  if (plan.estimateUsd.greaterThan(cap)) {
    return { kind: "over-cap", message: `The estimate $${money(plan.estimateUsd)} is over the cap $${cap.toFixed(2)}`, estimateUsd: money(plan.estimateUsd) };
  }
  const settings = await readProbeSettings(db, modelId);
  const active = await db.probeActiveRun.findUnique({ where: { modelId } });
  if (active) return { kind: "busy", message: `Probe ${active.runId} of ${modelId} is still active; cancel it or wait` };
  try {
    const runId = await db.$transaction(async (tx) => {
      const run = await tx.probeRun.create({
        data: {
          modelId,
          status: "queued",
          referenceTag: chosen.reference.tag,
          endpointTags: chosen.endpoints.map((e) => e.tag),
          plan: [{ tag: chosen.reference.tag, provider: chosen.reference.provider, method: null }, ...plan.endpoints] as object,
          promptSet: prompts.key,
          promptSetVersion: prompts.version,
          promptCount: prompts.prompts.length,
          samplesPerPrompt: DEFAULT_PLAN_SETTINGS.samplesPerPrompt,
          alpha: PROBE_ALPHA,
          maxCostUsd: cap.toString(),
          estimateUsd: plan.estimateUsd.toString(),
          demo: chosen.demo ?? false,
          scheduledBy: options.scheduledBy ?? null,
          deltaNats: settings.deltaNats,
          sampler: settings.sampler as object,
        },
      });
      // The model's one active run: a unique violation here (and only here) means another run of
      // it was created since the check above. Any other unique violation is a fault, not "busy".
      await tx.probeActiveRun.create({ data: { modelId, runId: run.id } }).catch((err: unknown) => {
        throw (err as { code?: string }).code === "P2002" ? new AnotherRunActive() : err;
      });
      // The sequential design depends on the run's id (its seed), so it is stored right after.
      const orderSeed = hashString(`${modelId}|${run.id}`);
      const design = sequentialDesign(prompts.prompts.length, orderSeed);
      await tx.probeRun.update({ where: { id: run.id }, data: { design: design as object } });
      // Inserted in sending order (the runner sends pending requests by id), in statements of
      // CREATE_MANY_ROWS: a prompt set of 500 plans tens of thousands.
      await createInChunks(
        orderInWaves(plan.requests, design, orderForSending, orderSeed).map((r) => ({
          runId: run.id,
          tag: r.tag,
          role: r.role,
          method: r.method,
          promptIndex: r.promptIndex,
          sample: r.sample,
          cut: r.cut,
          seed: requestSeed(run.id, r),
          maxTokens: r.maxTokens,
          worstCaseUsd: r.worstCaseUsd.toString(),
          status: "pending" as const,
        })),
        (data) => tx.probeRequest.createMany({ data }),
      );
      return run.id;
    }, { timeout: 60_000, maxWait: 30_000 }); // a few thousand rows: seconds on a busy embedded database
    const run = await getRunView(db, runId);
    if (!run) throw new Error(`probe ${runId} vanished`);
    return { kind: "created", run };
  } catch (err) {
    if (err instanceof AnotherRunActive) return { kind: "busy", message: `Another probe of ${modelId} is active; cancel it or wait` };
    throw err;
  }
}

export interface EndpointProgress {
  tag: string;
  provider: string;
  method: ProbeMethod | null;
  isReference: boolean;
  done: number;
  errors: number;
  /** Planned but not sent: an early look of the sequential design decided what they were for. */
  skipped: number;
  total: number;
}

export interface RunView {
  id: number;
  modelId: string;
  status: "queued" | "running" | "done" | "cancelled" | "failed";
  reference: string;
  /** Requests settled (answered, failed or skipped) of the plan; `skipped` were decided at an early look and never sent. */
  progress: { done: number; total: number; skipped: number };
  estimateUsd: string;
  costUsd: string;
  maxCostUsd: string;
  startedAt: string | null;
  finishedAt: string | null;
  createdAt: string;
  error?: string;
  promptSet: string;
  promptSetVersion: string;
  promptCount: number;
  alpha: number;
  demo: boolean;
  /** Why the scheduled re-probe queued it; null when started by hand. */
  scheduledBy: string | null;
  /** The margin, nats/token of KL; null for runs before the equivalence probe. */
  deltaNats: number | null;
  /** The sampler sent; null for runs before it was recorded. */
  sampler: SamplerSettings | null;
  endpoints: EndpointProgress[];
}

export interface ResultView {
  tag: string;
  provider: string;
  verdict: string;
  method: ProbeMethod | null;
  statistic: number | null;
  pValue: number | null;
  rawPValue: number | null;
  noiseFloor: number | null;
  detectableEffect: number | null;
  promptsCompared: number;
  promptTokensMatch: boolean | null;
  servedBy: string[];
  costUsd: string;
  reason: string;
  /** The equivalence probe's numbers; null for the reference, unverifiable endpoints and older runs. */
  divergence: DivergenceView | null;
  sampler: SamplerSettings | null;
}

export type DivergenceView = Omit<DivergenceEvidence, "pValueAboveDelta" | "pValueAboveZero" | "prompts">;

export function money(value: Decimal.Value): string {
  const d = new Decimal(value);
  return d.decimalPlaces() < 2 ? d.toFixed(2) : d.toFixed();
}

export async function getRunView(db: Db, runId: number): Promise<RunView | null> {
  const run = await db.probeRun.findUnique({ where: { id: runId } });
  if (!run) return null;
  const counts = await db.probeRequest.groupBy({ by: ["tag", "role", "status"], where: { runId }, _count: { _all: true } });
  const plan = run.plan as unknown as Array<{ tag: string; provider: string; method: ProbeMethod | null }>;
  const endpoints = plan.map((e) => {
    const isReference = e.tag === run.referenceTag;
    const mine = counts.filter((c) => c.tag === e.tag && (isReference ? c.role !== "endpoint" : c.role === "endpoint"));
    const sum = (status?: string) => mine.filter((c) => !status || c.status === status).reduce((s, c) => s + c._count._all, 0);
    return { tag: e.tag, provider: e.provider, method: e.method, isReference, done: sum("done"), errors: sum("error"), skipped: sum("skipped"), total: sum() };
  });
  const total = counts.reduce((s, c) => s + c._count._all, 0);
  const finished = counts.filter((c) => c.status !== "pending").reduce((s, c) => s + c._count._all, 0);
  const skipped = counts.filter((c) => c.status === "skipped").reduce((s, c) => s + c._count._all, 0);
  return {
    id: run.id,
    modelId: run.modelId,
    status: run.status as RunView["status"],
    reference: run.referenceTag,
    progress: { done: finished, total, skipped },
    estimateUsd: money(run.estimateUsd.toString()),
    costUsd: money(run.costUsd.toString()),
    maxCostUsd: money(run.maxCostUsd.toString()),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    createdAt: run.createdAt.toISOString(),
    ...(run.error ? { error: run.error } : {}),
    promptSet: run.promptSet,
    promptSetVersion: run.promptSetVersion,
    promptCount: run.promptCount,
    alpha: run.alpha,
    demo: run.demo,
    scheduledBy: run.scheduledBy,
    deltaNats: run.deltaNats,
    sampler: run.sampler ? samplerOfRun(run) : null,
    endpoints,
  };
}

export async function getRunResults(db: Db, runId: number): Promise<ResultView[]> {
  const rows = await db.probeResult.findMany({ where: { runId }, orderBy: { id: "asc" } });
  return rows.map((r) => ({
    tag: r.tag,
    provider: r.provider,
    verdict: r.verdict,
    method: r.method as ResultView["method"],
    statistic: r.statistic,
    pValue: r.pValue,
    rawPValue: r.rawPValue,
    noiseFloor: r.noiseFloor,
    detectableEffect: r.detectableEffect,
    promptsCompared: r.promptsCompared,
    promptTokensMatch: r.promptTokensMatch,
    servedBy: r.servedBy,
    costUsd: money(r.costUsd.toString()),
    reason: r.reason,
    divergence: divergenceView(r),
    sampler: r.sampler ? samplerOfRun({ sampler: r.sampler }) : null,
  }));
}

type ResultRow = Awaited<ReturnType<Db["probeResult"]["findMany"]>>[number];

function divergenceView(r: ResultRow): DivergenceView | null {
  if (r.deltaNats === null || r.klNats === null) return null;
  const num = (v: number | null, missing: number) => v ?? missing;
  const kinds = (r.logprobsKind ?? {}) as { reference?: LogprobsKind; endpoint?: LogprobsKind };
  return {
    deltaNats: r.deltaNats,
    klNats: { estimate: r.klNats, low: num(r.klLowNats, -Infinity), high: num(r.klHighNats, Infinity) },
    tv: { estimate: num(r.tv, NaN), low: num(r.tvLow, -Infinity), high: num(r.tvHigh, Infinity) },
    aaKlNats: { estimate: num(r.aaKlNats, NaN), low: num(r.aaKlLowNats, -Infinity), high: num(r.aaKlHighNats, Infinity) },
    aaTv: num(r.aaTv, NaN),
    referenceUnstable: r.referenceUnstable ?? false,
    detectableNats: num(r.detectableNats, Infinity),
    top1Agreement: num(r.top1Agreement, NaN),
    positions: r.positions ?? 0,
    ...(r.prefill ? { onPolicyPositions: r.onPolicyPositions ?? 0, prefill: r.prefill as PrefillBehaviour } : {}),
    logprobs: { reference: kinds.reference ?? "unknown", endpoint: kinds.endpoint ?? "unknown" },
    cachedTokens: r.cachedTokens ?? 0,
    confidence: r.confidence ?? 0.95,
    look: r.look !== null && r.looks !== null && r.lookPrompts !== null ? { at: r.look, of: r.looks, prompts: r.lookPrompts } : null,
  };
}

export async function listRuns(db: Db, modelId: string, limit: number): Promise<RunView[]> {
  const rows = await db.probeRun.findMany({ where: { modelId }, orderBy: { id: "desc" }, take: limit, select: { id: true } });
  const views = await Promise.all(rows.map((r) => getRunView(db, r.id)));
  return views.filter((v): v is RunView => v !== null);
}

/** Asks a run to stop. A queued run stops at once; a running one after its in-flight answers. */
export async function cancelRun(db: Db, runId: number): Promise<RunView | null> {
  const run = await db.probeRun.findUnique({ where: { id: runId } });
  if (!run) return null;
  if (run.status === "queued") {
    await db.$transaction([
      db.probeRun.updateMany({ where: { id: runId, status: "queued" }, data: { status: "cancelled", cancelRequested: true, finishedAt: new Date() } }),
      db.probeActiveRun.deleteMany({ where: { runId } }),
    ]);
  } else if (run.status === "running") {
    await db.probeRun.update({ where: { id: runId }, data: { cancelRequested: true } });
  }
  return getRunView(db, runId);
}
