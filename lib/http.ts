import "server-only";
import { NextResponse } from "next/server";
import { z } from "zod";
import { normaliseModelId } from "./openrouter/client";
import { clearMemo } from "./queries/memo";
import { EMBEDDED_DB_IN_USE } from "./db/embedded-lock";

// Small helpers that keep route handlers to: validate → authorise → one domain call → JSON.

export function jsonError(status: number, message: string, details?: unknown): NextResponse {
  return NextResponse.json({ error: { status, message, ...(details ? { details } : {}) } }, { status });
}

export function zodMessage(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");
}

/** "author" + "slug" route params to a model id, or null when they are not a valid id. */
export function modelIdFromParams(params: { author: string; slug: string }): string | null {
  try {
    return normaliseModelId(`${decodeURIComponent(params.author)}/${decodeURIComponent(params.slug)}`);
  } catch {
    return null;
  }
}

// ---- Input: every route handler reads its body, query and params through these, so a bad
// request always gets a 400 naming the field (413 when too big), never a stack trace.

export type BodyResult<T> = { ok: true; data: T } | { ok: false; response: NextResponse };

/** The largest JSON body a route accepts unless it says otherwise. */
export const MAX_JSON_BYTES = 64 * 1024;

/** Reads a JSON body of at most maxBytes (stopping as soon as it is over) and validates it. */
export async function readJson<S extends z.ZodType>(
  request: Request,
  schema: S,
  { maxBytes = MAX_JSON_BYTES, emptyAs }: { maxBytes?: number; /** Validated in place of an empty body. */ emptyAs?: unknown } = {},
): Promise<BodyResult<z.output<S>>> {
  const tooLarge = () => ({ ok: false as const, response: jsonError(413, `The request body is over ${maxBytes} bytes`) });
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge();
  const text = await readLimited(request, maxBytes);
  if (text === null) return tooLarge();
  if (text.trim() === "") {
    if (emptyAs !== undefined) return validated(schema, emptyAs);
    return { ok: false, response: jsonError(400, "The request body is empty; send a JSON object") };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, response: jsonError(400, "The request body is not valid JSON") };
  }
  return validated(schema, json);
}

/** Validates the query string (?a=1&b=2, last value wins) against a schema of strings. */
export function readQuery<S extends z.ZodType>(request: Request, schema: S): BodyResult<z.output<S>> {
  // An empty value ("?kind=" from a form's "any") counts as absent.
  const entries = [...new URL(request.url).searchParams.entries()].filter(([, v]) => v !== "");
  return validated(schema, Object.fromEntries(entries));
}

/** Validates route params (already awaited). */
export function readParams<S extends z.ZodType>(params: unknown, schema: S): BodyResult<z.output<S>> {
  return validated(schema, params);
}

function validated<S extends z.ZodType>(schema: S, value: unknown): BodyResult<z.output<S>> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) return { ok: false, response: jsonError(400, zodMessage(parsed.error)) };
  return { ok: true, data: parsed.data };
}

/** The body's bytes, or null once it grows past maxBytes (the rest is not read). */
export async function readBodyCapped(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** The body as text, or null once it grows past maxBytes. */
async function readLimited(request: Request, maxBytes: number): Promise<string | null> {
  const bytes = await readBodyCapped(request, maxBytes);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

/** Route params {author, slug} of a model route, as a normalised model id. */
export const modelParamsSchema = z
  .object({
    author: z.string().max(100),
    slug: z.string().max(150),
  })
  .transform((p, ctx) => {
    const id = modelIdFromParams(p);
    if (!id) {
      ctx.addIssue({ code: "custom", path: ["model"], message: "must be an OpenRouter model id of the form author/slug" });
      return z.NEVER;
    }
    return id;
  });

/**
 * Wraps a route handler so that an unexpected error answers a short JSON error (503 when the
 * database cannot be reached) with no stack trace, and is logged on the server. After a request
 * that may have written (any method but GET and HEAD), the shared reads are dropped, so the next
 * page or API answer shows the change.
 */
export function guarded<A extends unknown[]>(
  handler: (...args: A) => Promise<Response>,
): (...args: A) => Promise<Response> {
  return async (...args: A) => {
    const request = args[0] instanceof Request ? args[0] : null;
    try {
      return await handler(...args);
    } catch (err) {
      const unreachable = isDatabaseUnreachable(err);
      console.error(`[api] ${unreachable ? "database unreachable" : "unexpected error"}:`, (err as Error)?.message ?? err);
      return unreachable
        ? jsonError(503, "The database cannot be reached; try again shortly")
        : jsonError(500, "Something went wrong on the server; it has been logged");
    } finally {
      if (request && request.method !== "GET" && request.method !== "HEAD") clearMemo();
    }
  };
}

const UNREACHABLE = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Connection terminated|connection (is )?closed|Can't reach database|timed out/i;

export function isDatabaseUnreachable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as Error & { code?: unknown }).code;
  if (code === "P1001" || code === "P1017" || code === "ECONNREFUSED" || code === EMBEDDED_DB_IN_USE) return true;
  const cause = (err as Error & { cause?: unknown }).cause;
  return UNREACHABLE.test(err.message) || (cause instanceof Error && UNREACHABLE.test(cause.message));
}

/** The address readers reach the site at: the Host (or a proxy's X-Forwarded-Host) they asked. */
export function requestOrigin(request: Request): string {
  const url = new URL(request.url);
  const host = (request.headers.get("x-forwarded-host") ?? request.headers.get("host"))?.split(",")[0].trim();
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0].trim() ?? url.protocol.replace(":", "");
  return host && /^[a-z0-9.\-\[\]:]+$/i.test(host) && (proto === "http" || proto === "https") ? `${proto}://${host}` : url.origin;
}
