import "server-only";
import { secretEquals } from "../security/basic-auth";
import { memo, READ_REUSE_MS } from "./memo";

// Shared renders of whole pages, for what every viewer of a link asks at once (see memo.ts).
//
// A page's HTML is the same for every viewer of one link between two writes, except the CSP
// nonce on its scripts, which must be new in every response. Rendering it (React, about 13 ms of
// the one JavaScript thread for a model page) is most of what a crowd of viewers costs, so the
// proxy asks Next.js for the page once, through a loopback request that carries this process's
// secret and a nonce of its own, and answers every viewer of that link from the result for
// READ_REUSE_MS, each with a fresh nonce put in place of the render's. The render's nonce is
// never sent to anyone, so every response still has a nonce of its own that nobody could guess.
//
// - Only page loads are shared (isSharedPageRequest), after the proxy's login and origin checks.
// - Only renders that answer 200 with HTML of at most MAX_SHARED_BYTES are kept; anything else (a
//   404, a redirect, an error page, a loopback request that fails) is rendered for its viewer as
//   if nothing were shared.
// - Invalidation is the memo's: a poll cycle or any write in this process clears it. Another
//   instance's writes on a shared server database show within 2 × READ_REUSE_MS (a render may
//   use a shared read up to READ_REUSE_MS old).

const INTERNAL_HEADER = "x-routeboard-render-secret";
const RENDER_NONCE_HEADER = "x-routeboard-render-nonce";
/** On each shared answer: which render it came from (a short random id), so it can be seen which viewers shared one. */
export const SHARED_RENDER_HEADER = "X-Routeboard-Shared-Render";

const holder = globalThis as unknown as { __routeboardRenderSecret?: string };
const secret = (holder.__routeboardRenderSecret ??= crypto.randomUUID());

export interface RenderedPage {
  id: string;
  /** A 200 with HTML, always. */
  headers: Array<[string, string]>;
  body: string;
  /** The nonce the render was given: replaced by each response's own. */
  nonce: string;
}

export function newNonce(): string {
  return Buffer.from(crypto.randomUUID()).toString("base64");
}

/** The loopback render this module asked for: it gets the render's nonce and skips the sharing. */
export function internalRenderNonce(headers: Headers): string | null {
  const given = headers.get(INTERNAL_HEADER);
  return given !== null && secretEquals(given, secret) ? headers.get(RENDER_NONCE_HEADER) : null;
}

/**
 * A browser loading a page (or a client that asks for HTML as one does). Next.js's client router
 * and server actions fetch the same URLs for an RSC payload; the proxy does not see their RSC
 * headers (Next.js strips them before it runs), so they are told apart by what they accept and,
 * in browsers, by Sec-Fetch-Dest: they accept anything and fetch "empty", a page load asks for
 * HTML and fetches a "document".
 */
export function isSharedPageRequest(request: Request): boolean {
  if (request.method !== "GET" || request.headers.has("next-action") || request.headers.has("next-url")) return false;
  const dest = request.headers.get("sec-fetch-dest");
  return (dest === null || dest === "document") && (request.headers.get("accept") ?? "").includes("text/html");
}

/** Where this process listens (Next.js's `start` records it), for the loopback render. */
function ownOrigin(): string | null {
  return process.env.__NEXT_PRIVATE_ORIGIN ?? (process.env.PORT ? `http://127.0.0.1:${process.env.PORT}` : null);
}

const MAX_SHARED_BYTES = 2_000_000;

// After a loopback request fails (this process cannot reach its own address?), pages are rendered
// alone for a minute, with one log line, rather than a failed attempt and a line per request.
const PAUSE_AFTER_FAILURE_MS = 60_000;
let pausedUntil = 0;

/** The page at this path and query, rendered once for everyone who asks within READ_REUSE_MS; null when it is not shared. */
export async function sharedPage(url: URL): Promise<RenderedPage | null> {
  const origin = ownOrigin();
  if (!origin || Date.now() < pausedUntil) return null;
  const path = url.pathname + url.search;
  try {
    return await memo(`page:${path}`, () => render(origin, path), READ_REUSE_MS);
  } catch (err) {
    if (Date.now() >= pausedUntil) {
      pausedUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
      console.error(`[pages] a shared render through ${origin} failed; pages are rendered for each viewer for a minute:`, (err as Error).message);
    }
    return null;
  }
}

const DROPPED_HEADERS = new Set(["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive", "date", "content-security-policy"]);

/** The loopback render; null (kept for READ_REUSE_MS too, so a crowd on a 404 renders alone at once) when it is not to be shared. */
async function render(origin: string, path: string): Promise<RenderedPage | null> {
  const nonce = newNonce();
  const response = await fetch(origin + path, {
    headers: { [INTERNAL_HEADER]: secret, [RENDER_NONCE_HEADER]: nonce, "accept-encoding": "identity" },
    redirect: "manual",
    cache: "no-store",
  });
  const body = await response.text();
  if (response.status !== 200 || !response.headers.get("content-type")?.startsWith("text/html") || body.length > MAX_SHARED_BYTES) {
    return null;
  }
  return { id: crypto.randomUUID().slice(0, 8), headers: [...response.headers].filter(([name]) => !DROPPED_HEADERS.has(name)), body, nonce };
}
