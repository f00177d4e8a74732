import "server-only";
import { secretEquals } from "../security/basic-auth";
import { READ_REUSE_MS, sharedReads } from "./memo";

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
//   The render sees none of the viewer's headers or cookies: a page that comes to depend on who
//   asks (a per-user setting, a cookie) must not be shared.
// - Only renders that answer 200 with HTML of at most MAX_PAGE_CHARS, and carry the nonce they
//   were given (so they came from this process), are kept; anything else (a 404, a redirect, an
//   error page, a loopback request that fails) is rendered for its viewer as if nothing were
//   shared. The store holds at most MAX_PAGES renders and MAX_STORE_CHARS of HTML.
// - Next.js writes the page's payload as script chunks; one chunk splitting a nonce would leave
//   it unreplaced. The payload of a page without Suspense streaming is one chunk, and a response
//   keeping the old nonce would only have its scripts refused, never run someone else's.
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

const NONCE_PATTERN = /^[A-Za-z0-9]{48}$/; // base64 of a UUID's 36 ASCII characters

/** The loopback render this module asked for (a GET with this process's secret): the nonce it is to be rendered with. */
export function internalRenderNonce(request: Request): string | null {
  const given = request.headers.get(INTERNAL_HEADER);
  if (request.method !== "GET" || given === null || !secretEquals(given, secret)) return null;
  const nonce = request.headers.get(RENDER_NONCE_HEADER);
  return nonce !== null && NONCE_PATTERN.test(nonce) ? nonce : null;
}

/** The request as the render should see it: without this module's headers. */
export function withoutInternalHeaders(headers: Headers): Headers {
  const copy = new Headers(headers);
  copy.delete(INTERNAL_HEADER);
  copy.delete(RENDER_NONCE_HEADER);
  return copy;
}

/**
 * A browser loading a page (or a client that asks for HTML as one does). Next.js's client router
 * and server actions fetch the same URLs for an RSC payload; the proxy does not see their RSC
 * headers (Next.js strips them before it runs), so they are told apart by what is left: the
 * router sends Next-Url and a server action Next-Action, and fetch() in a browser accepts
 * anything and fetches "empty", where a page load asks for HTML and fetches a "document".
 */
export function isSharedPageRequest(request: Request): boolean {
  if (request.method !== "GET" || request.headers.has("next-action") || request.headers.has("next-url")) return false;
  const dest = request.headers.get("sec-fetch-dest");
  return (dest === null || dest === "document") && (request.headers.get("accept") ?? "").includes("text/html");
}

/** Where this process listens, as `next start` records it; unknown (nothing shared) under another launcher. */
function ownOrigin(): string | null {
  return process.env.__NEXT_PRIVATE_ORIGIN ?? null;
}

const MAX_PAGE_CHARS = 2_000_000;
const MAX_PAGES = 100;
const MAX_STORE_CHARS = 8_000_000; // at most 16 MB (2 bytes a character at worst); see bench/memory.md
const RENDER_TIMEOUT_MS = 10_000;

const renders = sharedReads("pages", {
  maxEntries: MAX_PAGES,
  maxWeight: MAX_STORE_CHARS,
  weigh: (page) => (page as RenderedPage | null)?.body.length ?? 0,
});

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
    return await renders.read(path, () => render(origin, path), READ_REUSE_MS);
  } catch (err) {
    if (Date.now() >= pausedUntil) {
      pausedUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
      console.error(`[pages] a shared render through ${origin} failed; pages are rendered for each viewer for a minute:`, (err as Error).message);
    }
    return null;
  }
}

/** The render's headers that go to its viewers; the proxy adds the security headers. */
const KEPT_HEADERS = ["content-type", "cache-control", "vary"];

/** The loopback render; null (kept for READ_REUSE_MS too, so a crowd on a 404 renders alone at once) when it is not to be shared. */
async function render(origin: string, path: string): Promise<RenderedPage | null> {
  const nonce = newNonce();
  const response = await fetch(origin + path, {
    headers: { [INTERNAL_HEADER]: secret, [RENDER_NONCE_HEADER]: nonce, "accept-encoding": "identity" },
    redirect: "manual",
    cache: "no-store",
    signal: AbortSignal.timeout(RENDER_TIMEOUT_MS),
  });
  const body = await response.text();
  if (response.status !== 200 || !response.headers.get("content-type")?.startsWith("text/html") || body.length > MAX_PAGE_CHARS) {
    return null;
  }
  // A page without the nonce it was given was not rendered by this process (another one on the
  // same address?): sharing stops, rather than every viewer getting scripts the CSP refuses.
  if (!body.includes(nonce)) throw new Error(`the page at ${origin} was not rendered by this process (its nonce is missing)`);
  const headers = KEPT_HEADERS.flatMap((name): Array<[string, string]> => {
    const value = response.headers.get(name);
    return value === null ? [] : [[name, value]];
  });
  return { id: crypto.randomUUID().slice(0, 8), headers, body, nonce };
}
