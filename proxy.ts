import { NextResponse, type NextRequest } from "next/server";
import { FEED_TOKEN_PARAM, feedPathSlug, feedTokenOpens } from "@/lib/alerts/feed-token";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { BODY_TOO_LARGE_MESSAGE, bodyOverLimit } from "@/lib/security/body-limit";
import { BROKEN_LINK_MESSAGE, brokenLinkPage } from "@/lib/security/broken-link-page";
import { basicAuthMatches, bearerMatches, parseBasicAuthSetting } from "@/lib/security/basic-auth";
import { contentSecurityPolicy, PLAIN_PAGE_CSP, SECURITY_HEADERS, STATIC_CSP } from "@/lib/security/headers";
import { internalRenderNonce, isSharedPageRequest, newNonce, SHARED_RENDER_HEADER, sharedPage, withoutInternalHeaders } from "@/lib/queries/shared-pages";
import { checkSameOrigin } from "@/lib/security/origin";

// Runs before every page, API route and server action (Next 16's proxy, on the Node.js runtime):
// Basic auth when BASIC_AUTH is set, refusal of cross-origin writes, and the security headers with
// a fresh CSP nonce per request. A page load is answered from a render shared by the viewers of
// the same link (lib/queries/shared-pages.ts), with a nonce of its own. Static build files get
// their headers from next.config.mjs.

const credentials = env.BASIC_AUTH ? parseBasicAuthSetting(env.BASIC_AUTH) : null;
const PUBLIC_PATHS = new Set(["/api/health"]);

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const { pathname } = request.nextUrl;
  const isApi = pathname === "/api" || pathname.startsWith("/api/");

  // The loopback render of a shared page (see below): already checked when its viewer asked.
  const renderNonce = isApi ? null : internalRenderNonce(request);
  if (renderNonce) return withNonce(request, renderNonce);

  // A broken percent escape (a link cut mid-character): Next.js would fail decoding the route's
  // parameters and answer a bare 500, so it is answered here, with a message and our headers.
  if (!decodable(pathname)) return secured(brokenLink(isApi, pathname), isApi ? STATIC_CSP : PLAIN_PAGE_CSP);

  if (credentials && !PUBLIC_PATHS.has(pathname) && !isCronCall(request, pathname) && !(await isPrivateFeedRead(request, pathname))) {
    if (!basicAuthMatches(request.headers.get("authorization"), credentials)) {
      return secured(
        NextResponse.json(
          { error: { status: 401, message: "Authentication required" } },
          { status: 401, headers: { "WWW-Authenticate": 'Basic realm="Routeboard", charset="UTF-8"' } },
        ),
        STATIC_CSP,
      );
    }
  }

  const origin = checkSameOrigin(request.method, request.headers);
  if (!origin.allowed) {
    return secured(
      NextResponse.json(
        { error: { status: 403, message: `Changes are accepted from this site only (${origin.reason})` } },
        { status: 403 },
      ),
      STATIC_CSP,
    );
  }

  // A body over the largest any route accepts, whatever its encoding (a length, or chunked and
  // counted here): refused before any route reads a part of it (lib/security/body-limit.ts).
  if (await bodyOverLimit(request)) {
    return secured(NextResponse.json({ error: { status: 413, message: BODY_TOO_LARGE_MESSAGE } }, { status: 413 }), STATIC_CSP);
  }

  if (isApi) return secured(NextResponse.next(), STATIC_CSP);

  // A page load: the render this link shares with its other viewers, with a nonce of its own.
  if (env.NODE_ENV === "production" && isSharedPageRequest(request)) {
    const page = await sharedPage(request.nextUrl);
    if (page) {
      const nonce = newNonce();
      const response = new NextResponse(page.body.replaceAll(page.nonce, nonce), { status: 200, headers: page.headers });
      response.headers.set(SHARED_RENDER_HEADER, page.id);
      return secured(response, contentSecurityPolicy(nonce, { dev: false }));
    }
  }
  return withNonce(request, newNonce());
}

/** On to Next.js's render, which puts this nonce on its scripts (it reads it from the request's CSP). */
function withNonce(request: NextRequest, nonce: string): NextResponse {
  const csp = contentSecurityPolicy(nonce, { dev: env.NODE_ENV === "development" });
  const requestHeaders = withoutInternalHeaders(request.headers);
  requestHeaders.set("content-security-policy", csp);
  return secured(NextResponse.next({ request: { headers: requestHeaders } }), csp);
}

function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

function brokenLink(isApi: boolean, pathname: string): NextResponse {
  if (isApi) return NextResponse.json({ error: { status: 400, message: BROKEN_LINK_MESSAGE } }, { status: 400 });
  return new NextResponse(brokenLinkPage(pathname), { status: 400, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/** A cron job calls POST /api/poll with its CRON_SECRET instead of the Basic credentials. */
function isCronCall(request: NextRequest, pathname: string): boolean {
  return (
    pathname === "/api/poll" &&
    env.CRON_SECRET !== undefined &&
    bearerMatches(request.headers.get("authorization"), env.CRON_SECRET)
  );
}

/**
 * A feed reader reading a saved view's feed through the view's private link (a valid
 * `?token=`, lib/alerts/feed-token.ts) needs no Basic credentials; the token opens that feed only.
 * A token that is not valid (revoked, replaced, another view's) gets the usual 401.
 */
async function isPrivateFeedRead(request: NextRequest, pathname: string): Promise<boolean> {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const slug = feedPathSlug(pathname);
  const token = request.nextUrl.searchParams.get(FEED_TOKEN_PARAM);
  if (!slug || !token) return false;
  try {
    return await feedTokenOpens(await getDb(), slug, token);
  } catch {
    return false; // the database cannot be reached: the feed could not be read anyway
  }
}

function secured(response: NextResponse, csp: string): NextResponse {
  response.headers.set("Content-Security-Policy", csp);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Everything but the build's static files (their headers are set in next.config.mjs).
  matcher: ["/((?!_next/static|_next/image).*)"],
};
