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
