import { createHash } from "node:crypto";
import Decimal from "decimal.js";
import { z } from "zod";
import { GENERATION_ID } from "../openrouter/generation-schema";
import { LARGEST_BODY_BYTES } from "../security/body-limit";

// The pipeline's usage records, one JSON object per line, in one of three shapes:
//  - a chat completion response: {id, provider, model, usage: {prompt_tokens, completion_tokens, cost}}
//  - a flat record: {provider, input_tokens, output_tokens, cost, dataset?, id?, model?}
//  - a record that kept only the generation id: {id, dataset?, model?, input_tokens?, output_tokens?,
//    cost?, occurred_at?}: it awaits a lookup of OpenRouter's /generation (lib/provenance/lookup.ts),
//    which fills its provider and whatever else it lacks.
// Each line is validated on its own; a bad line is reported by its number and skipped.

const COST_TEXT = /^\d+(\.\d+)?(e-?\d+)?$/i;
const tokens = z.number().int().nonnegative().max(1e13);
const cost = z.union([z.number(), z.string().regex(COST_TEXT)]).transform((v, ctx) => {
  const d = new Decimal(v);
  if (d.isNegative() || !d.isFinite()) {
    ctx.addIssue({ code: "custom", message: "cost must be a non-negative number" });
    return z.NEVER;
  }
  return d;
});
const text = (max: number) => z.string().trim().min(1).max(max);
const dataset = text(80).nullish();
const isoTime = z.iso.datetime({ offset: true });
const when = z
  .union([z.number().int().positive(), isoTime])
  .optional()
  .transform((v) => (v === undefined ? null : typeof v === "number" ? new Date(v < 1e11 ? v * 1000 : v) : new Date(v)));

/** The endpoint's tag ("deepinfra/fp8"), when the pipeline recorded it: tells a provider's endpoints apart. */
const tag = text(100).nullish();

const completionSchema = z.looseObject({
  id: text(200),
  provider: text(100),
  tag,
  model: text(200).optional(),
  created: when,
  dataset,
  usage: z.looseObject({ prompt_tokens: tokens, completion_tokens: tokens, cost }),
});

const flatSchema = z.looseObject({
  id: text(200).optional(),
  provider: text(100),
  tag,
  model: text(200).optional(),
  dataset,
  input_tokens: tokens,
  output_tokens: tokens,
  cost,
  occurred_at: when,
});

export const GENERATION_ID_RULE = "an OpenRouter generation id: gen- then letters, digits, _ or -, up to 200 characters";

const lookupSchema = z.looseObject({
  id: z.string().trim().regex(GENERATION_ID, `must be ${GENERATION_ID_RULE}`),
  tag,
  model: text(200).optional(),
  dataset,
  input_tokens: tokens.optional(),
  output_tokens: tokens.optional(),
  cost: cost.optional(),
  occurred_at: when,
});

/** What an id-only record lacked, to be filled from the looked-up answer. */
export type MissingField = "model" | "tokens" | "cost" | "time";

export interface ParsedUsage {
  dedupeKey: string;
  /** Null: the record awaits its lookup (see `lookup`). */
  provider: string | null;
  modelId: string | null;
  dataset: string | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: Decimal;
  occurredAt: Date | null;
  tag: string | null;
  /** Set for a record that kept only its generation id: the id to look up, and what else it lacked. */
  lookup?: { generationId: string; missing: MissingField[] };
}

export interface LineError {
  line: number;
  message: string;
}

export interface ParsedFile {
  lines: number;
  records: ParsedUsage[];
  errors: LineError[];
  /** Lines whose dedupe key appeared earlier in the same file. */
  duplicatesInFile: number;
}

export const MAX_REPORTED_ERRORS = 100;

/** `schemasOnly`: validate every line by the schemas above, without the flat records' fast path (for its test). */
export function parseUsageJsonl(body: string, options: { schemasOnly?: boolean } = {}): ParsedFile {
  const records: ParsedUsage[] = [];
  const errors: LineError[] = [];
  const seen = new Set<string>();
  let lines = 0;
  let duplicatesInFile = 0;
  const all = body.split(/\r?\n/);
  for (let i = 0; i < all.length; i++) {
    const raw = all[i].trim();
    if (raw === "") continue;
    lines++;
    const result = parseLine(raw, options.schemasOnly === true);
    if ("error" in result) {
      errors.push({ line: i + 1, message: result.error });
      continue;
    }
    if (seen.has(result.dedupeKey)) {
      duplicatesInFile++;
      continue;
    }
    seen.add(result.dedupeKey);
    records.push(result);
  }
  return { lines, records, errors, duplicatesInFile };
}

function parseLine(raw: string, schemasOnly: boolean): ParsedUsage | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { error: "not valid JSON" };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return { error: "not a JSON object" };
  if ("usage" in json) {
    const r = completionSchema.safeParse(json);
    if (!r.success) return { error: describe(r.error) };
    const d = r.data;
    return normalised({
      id: d.id,
      provider: d.provider,
      modelId: d.model ?? null,
      dataset: d.dataset ?? null,
      inputTokens: d.usage.prompt_tokens,
      outputTokens: d.usage.completion_tokens,
      costUsd: d.usage.cost,
      occurredAt: d.created,
      tag: d.tag ?? null,
    });
  }
  if (!("provider" in json)) {
    if (!("id" in json)) return { error: "provider: required (or give the generation id, id, to look the provider up by)" };
    const r = lookupSchema.safeParse(json);
    if (!r.success) return { error: describe(r.error) };
    const d = r.data;
    const missing: MissingField[] = [];
    if (d.model === undefined) missing.push("model");
    if (d.input_tokens === undefined || d.output_tokens === undefined) missing.push("tokens");
    if (d.cost === undefined) missing.push("cost");
    if (d.occurred_at === null) missing.push("time");
    return {
      ...normalised({
        id: d.id,
        provider: null,
        modelId: d.model ?? null,
        dataset: d.dataset ?? null,
        inputTokens: d.input_tokens ?? 0,
        outputTokens: d.output_tokens ?? 0,
        costUsd: d.cost ?? new Decimal(0),
        occurredAt: d.occurred_at,
        tag: d.tag ?? null,
      }),
      lookup: { generationId: d.id, missing },
    };
  }
  const fast = schemasOnly ? undefined : plainFlat(json as Record<string, unknown>);
  if (fast) return fast;
  const r = flatSchema.safeParse(json);
  if (!r.success) return { error: describe(r.error) };
  const d = r.data;
  return normalised({
    id: d.id ?? null,
    provider: d.provider,
    modelId: d.model ?? null,
    dataset: d.dataset ?? null,
    inputTokens: d.input_tokens,
    outputTokens: d.output_tokens,
    costUsd: d.cost,
    occurredAt: d.occurred_at,
    tag: d.tag ?? null,
  });
}

/**
 * The flat record as most pipelines write it, checked field by field without the schema (parsing
 * was half of an import's time; 100,000 lines now parse in 1.3-1.7 s against 2.2-2.6 s, see
 * bench/provenance.md), or undefined for anything it is not sure of: the schema then decides, and
 * words the error. It
 * accepts only what flatSchema accepts and returns what flatSchema's record would give
 * (tests/unit/usage-parse-fast.test.ts checks both on many made-up lines).
 */
export function plainFlat(json: Record<string, unknown>): ParsedUsage | undefined {
  const provider = plainText(json.provider, 100);
  const id = json.id === undefined ? null : plainText(json.id, 200);
  const model = json.model === undefined ? null : plainText(json.model, 200);
  const dataset = json.dataset === undefined || json.dataset === null ? null : plainText(json.dataset, 80);
  const tag = json.tag === undefined || json.tag === null ? null : plainText(json.tag, 100);
  const input = json.input_tokens;
  const output = json.output_tokens;
  if (provider === undefined || id === undefined || model === undefined || dataset === undefined || tag === undefined) return undefined;
  if (!plainTokens(input) || !plainTokens(output)) return undefined;
  let costUsd: Decimal;
  if (typeof json.cost === "string" && COST_TEXT.test(json.cost)) costUsd = new Decimal(json.cost);
  else if (typeof json.cost === "number" && json.cost >= 0) costUsd = new Decimal(json.cost);
  else return undefined;
  if (!costUsd.isFinite() || costUsd.isNegative()) return undefined; // -0 too, as the schema
  let occurredAt: Date | null = null;
  const at = json.occurred_at;
  if (typeof at === "string" && isoTime.safeParse(at).success) occurredAt = new Date(at);
  else if (typeof at === "number" && Number.isSafeInteger(at) && at > 0) occurredAt = new Date(at < 1e11 ? at * 1000 : at);
  else if (at !== undefined) return undefined;
  return normalised({ id, provider, modelId: model, dataset, inputTokens: input, outputTokens: output, costUsd, occurredAt, tag });
}

/** A string of 1 to max characters once trimmed (the trimmed text), else undefined. */
function plainText(v: unknown, max: number): string | undefined {
  if (typeof v !== "string") return undefined;
  const t = v.trim();
  return t.length >= 1 && t.length <= max ? t : undefined;
}

const plainTokens = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && v <= 1e13;

/** The generation id when there is one; otherwise a hash of the normalised record. */
function normalised(r: Omit<ParsedUsage, "dedupeKey"> & { id: string | null }): ParsedUsage {
  // The tag stays out of the hash, so a file imported before tags were read keeps its keys.
  const { id, ...record } = r;
  const dedupeKey = id
    ? `id:${id}`
    : `sha256:${createHash("sha256")
        .update(
          JSON.stringify([
            record.provider,
            record.modelId,
            record.dataset,
            record.inputTokens,
            record.outputTokens,
            record.costUsd.toString(),
            record.occurredAt?.toISOString() ?? null,
          ]),
        )
        .digest("hex")}`;
  return { dedupeKey, ...record };
}

function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");
}

/** The largest usage file accepted in one request (larger files: split them, or the route answers 413). */
export const MAX_IMPORT_BYTES = LARGEST_BODY_BYTES;
