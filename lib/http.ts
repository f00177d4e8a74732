import "server-only";
import { NextResponse } from "next/server";
import type { z } from "zod";
import { normaliseModelId } from "./openrouter/client";

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

export type BodyResult<T> = { ok: true; data: T } | { ok: false; response: NextResponse };

/** Reads a JSON body of at most maxBytes and validates it; a 400/413 response otherwise. */
export async function readJson<S extends z.ZodType>(
  request: Request,
  schema: S,
  { maxBytes = 64 * 1024 }: { maxBytes?: number } = {},
): Promise<BodyResult<z.output<S>>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) return { ok: false, response: jsonError(413, `The request body is over ${maxBytes} bytes`) };
  const text = await request.text();
  if (Buffer.byteLength(text) > maxBytes) {
    return { ok: false, response: jsonError(413, `The request body is over ${maxBytes} bytes`) };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, response: jsonError(400, "The request body is not valid JSON") };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { ok: false, response: jsonError(400, zodMessage(parsed.error)) };
  return { ok: true, data: parsed.data };
}
