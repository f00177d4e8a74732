import type { z } from "zod";
import { retryDelayMs } from "../backoff";
import { OpenRouterError } from "./errors";
import {
  creditsResponseSchema,
  endpointsResponseSchema,
  keyResponseSchema,
  modelsResponseSchema,
  type CreditsResponse,
  type EndpointsResponse,
  type KeyResponse,
  type ModelsResponse,
} from "./schemas";
import { chatCompletionSchema, type ChatCompletion, type ChatRequest } from "./chat-schemas";
import { GENERATION_ID, generationResponseSchema, type GenerationResponse } from "./generation-schema";

// The OpenRouter HTTP client: every response validated with zod, a timeout per attempt, and
// retries with jittered exponential backoff (lib/backoff.ts, capped at maxRetryAfterMs) on
// network errors, timeouts, 429 (honouring Retry-After) and 5xx. Other 4xx and malformed bodies
// fail at once with a typed error.

export interface OpenRouterClientOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the call fails instead. */
  maxRetryAfterMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

export interface Fetched<T> {
  data: T;
  /** The body exactly as received, for storing and hashing. */
  raw: string;
  attempts: number;
  /** The local replica marks its answers; they are demo data, never OpenRouter's. */
  demo: boolean;
}

export const REPLICA_HEADER = "x-routeboard-replica";

export interface OpenRouterClient {
  endpoints(modelId: string): Promise<Fetched<EndpointsResponse>>;
  models(): Promise<Fetched<ModelsResponse>>;
  key(): Promise<Fetched<KeyResponse>>;
  credits(): Promise<Fetched<CreditsResponse>>;
  /** POST /chat/completions. `maxAttempts: 1` leaves retrying to the caller (the probe runner paces its own). */
  chat(request: ChatRequest, options?: { maxAttempts?: number }): Promise<Fetched<ChatCompletion>>;
  /**
   * GET /generation?id=: who served one completion, its tokens and cost. A malformed id throws at
   * once (naming `id`). `maxAttempts: 1` leaves 404s and 429s to the caller (the lookup job paces its own).
   */
  generation(id: string, options?: { maxAttempts?: number }): Promise<Fetched<GenerationResponse>>;
  readonly hasKey: boolean;
}

const MODEL_ID = /^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._:-]*$/i;

/** Strips routing suffixes (":nitro", ":floor", ":exacto") and checks the "author/slug" form. */
export function normaliseModelId(id: string): string {
  const trimmed = id.trim().replace(/:(nitro|floor|exacto)$/i, "");
  if (!MODEL_ID.test(trimmed) || trimmed.includes("..")) {
    throw new Error(`"${id}" is not an OpenRouter model id of the form author/slug`);
  }
  return trimmed;
}

export function createOpenRouterClient(options: OpenRouterClientOptions): OpenRouterClient {
  const request = createOpenRouterRequest(options);
  return {
    hasKey: Boolean(options.apiKey),
    endpoints: (modelId) => {
      const [author, slug] = normaliseModelId(modelId).split("/");
      return request(
        `/models/${encodeURIComponent(author)}/${encodeURIComponent(slug)}/endpoints`,
        endpointsResponseSchema,
      );
    },
    models: () => request("/models", modelsResponseSchema),
    key: () => request("/key", keyResponseSchema),
    credits: () => request("/credits", creditsResponseSchema),
    chat: (body, opts) =>
      request("/chat/completions", chatCompletionSchema, { method: "POST", body, attempts: opts?.maxAttempts }),
    generation: (id, opts) => {
      if (!GENERATION_ID.test(id)) throw new Error(`id: "${id.slice(0, 80)}" is not an OpenRouter generation id (gen- then letters, digits, _ or -)`);
      return request(`/generation?id=${encodeURIComponent(id)}`, generationResponseSchema, { attempts: opts?.maxAttempts });
    },
  };
}

export interface OpenRouterRequestInit {
  method?: "GET" | "POST" | "PATCH" | "DELETE";
  /** Sent as JSON. */
  body?: unknown;
  /** False for a call that must not be repeated (creating a key): one attempt only. */
  retry?: boolean;
  /** At most this many attempts (default: the client's maxAttempts). */
  attempts?: number;
}

export type OpenRouterRequest = <S extends z.ZodType>(path: string, schema: S, init?: OpenRouterRequestInit) => Promise<Fetched<z.output<S>>>;

/** One validated call to OpenRouter with the timeout, retries and typed errors described above. */
export function createOpenRouterRequest(options: OpenRouterClientOptions): OpenRouterRequest {
  const {
    apiKey,
    timeoutMs = 15_000,
    maxAttempts = 4,
    baseDelayMs = 500,
    maxRetryAfterMs = 60_000,
    fetch: doFetch = fetch,
    sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  } = options;
  const baseUrl = options.baseUrl.replace(/\/+$/, "");

  type Attempt<T> =
    | { ok: true; value: Fetched<T> }
    | { ok: false; error: OpenRouterError; retryable: boolean; waitMs: number | null };

  async function attemptOnce<S extends z.ZodType>(path: string, schema: S, attempt: number, init: OpenRouterRequestInit): Promise<Attempt<z.output<S>>> {
    const url = `${baseUrl}${path}`;
    let response: Response;
    let raw: string;
    try {
      response = await doFetch(url, {
        method: init.method ?? "GET",
        headers: {
          accept: "application/json",
          ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
          ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
        cache: "no-store",
      });
      raw = await response.text();
    } catch (err) {
      const error = isTimeout(err)
        ? new OpenRouterError("timeout", `No answer from ${path} within ${timeoutMs} ms`, attempt)
        : new OpenRouterError("network", `Could not reach ${url}: ${networkReason(err, url)}`, attempt);
      return { ok: false, error, retryable: true, waitMs: null };
    }
    if (response.ok) {
      return { ok: true, value: parse(schema, raw, attempt, response.headers.has(REPLICA_HEADER)) };
    }
    const message = `HTTP ${response.status} from ${path}: ${describeErrorBody(raw)}`;
    const retryable = response.status === 429 || response.status >= 500;
    const waitMs = retryAfterMs(response.headers.get("retry-after"));
    const error = new OpenRouterError("http", message, attempt, response.status, waitMs ?? undefined);
    if (waitMs !== null && waitMs > maxRetryAfterMs) {
      const tooLong = `${message} (Retry-After ${Math.round(waitMs / 1000)} s is longer than we wait)`;
      return { ok: false, error: new OpenRouterError("http", tooLong, attempt, response.status, waitMs), retryable: false, waitMs };
    }
    return { ok: false, error, retryable, waitMs };
  }

  return async function request<S extends z.ZodType>(path: string, schema: S, init: OpenRouterRequestInit = {}): Promise<Fetched<z.output<S>>> {
    const attemptsAllowed = init.retry === false ? 1 : (init.attempts ?? maxAttempts);
    for (let attempt = 1; ; attempt++) {
      const result = await attemptOnce(path, schema, attempt, init);
      if (result.ok) return result.value;
      const { error, retryable, waitMs } = result;
      if (!retryable || attemptsAllowed === 1) throw error;
      if (attempt >= attemptsAllowed) {
        throw new OpenRouterError(
          error.kind,
          `${error.message} (gave up after ${attempt} attempt${attempt === 1 ? "" : "s"})`,
          attempt,
          error.status,
          error.retryAfterMs,
        );
      }
      await sleep(retryDelayMs(attempt, { baseMs: baseDelayMs, capMs: maxRetryAfterMs }, waitMs));
    }
  };
}

function parse<S extends z.ZodType>(schema: S, raw: string, attempts: number, demo: boolean): Fetched<z.output<S>> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new OpenRouterError("invalid_json", `The response is not JSON: ${raw.slice(0, 80)}`, attempts);
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const first = result.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
    throw new OpenRouterError("invalid_shape", `Unexpected response shape: ${first.join("; ")}`, attempts);
  }
  return { data: result.data, raw, attempts, demo };
}

/** Retry-After is either delta-seconds or an HTTP date. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function describeErrorBody(raw: string): string {
  try {
    const body = JSON.parse(raw) as { error?: { message?: unknown } };
    if (typeof body.error?.message === "string") return body.error.message.slice(0, 200);
  } catch {
    // not JSON: fall through to the raw text
  }
  return raw.slice(0, 200) || "(empty body)";
}

function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
}

/** Why a request never got an answer, in words, with the system's code kept for a search. */
export function networkReason(err: unknown, url: string): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code;
  const host = new URL(url).host;
  switch (code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `the name ${new URL(url).hostname} could not be looked up (${code}): this machine has no working DNS or no internet connection`;
    case "ECONNREFUSED":
      return `nothing accepted the connection at ${host} (${code})`;
    case "ECONNRESET":
      return `the connection to ${host} was reset (${code})`;
    case "ETIMEDOUT":
    case "ENETUNREACH":
    case "EHOSTUNREACH":
      return `the network cannot reach ${host} (${code}): no internet connection, or a firewall`;
    default:
      return code ?? cause?.message ?? err.message;
  }
}
