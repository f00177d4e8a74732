import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { basicAuthMatches, bearerMatches, parseBasicAuthSetting } from "@/lib/security/basic-auth";
import { contentSecurityPolicy, PLAIN_PAGE_CSP, SECURITY_HEADERS, STATIC_CSP } from "@/lib/security/headers";
import { internalRenderNonce, isSharedPageRequest, newNonce, SHARED_RENDER_HEADER, sharedPage, withoutInternalHeaders } from "@/lib/queries/shared-pages";
import { checkSameOrigin } from "@/lib/security/origin";

// Runs before every page, API route and server action (Next 16's proxy, on the Node.js runtime):
// Basic auth when BASIC_AUTH is set, refusal of cross-origin writes, and the security headers with
// a fresh CSP nonce per request. A page load is answered from a render shared by the viewers of
// the same link (lib/queries/shared-pages.ts), with a nonce of its own. Static build files get
// their headers from next.config.ts.

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
  if (!decodable(pathname)) return secured(brokenLink(isApi), isApi ? STATIC_CSP : PLAIN_PAGE_CSP);

  if (credentials && !PUBLIC_PATHS.has(pathname) && !isCronCall(request, pathname)) {
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

const BROKEN_LINK_MESSAGE = "This link is broken: its address has a malformed percent-escape (%). Copy the link again from the page it came from.";

function brokenLink(isApi: boolean): NextResponse {
  if (isApi) return NextResponse.json({ error: { status: 400, message: BROKEN_LINK_MESSAGE } }, { status: 400 });
  // A page without scripts or styles of its own (the static CSP allows none): plain and readable.
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Broken link · Routeboard</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#0f172a">
<h1 style="font-size:1.5rem">Broken link</h1><p>${BROKEN_LINK_MESSAGE}</p><p><a href="/">Back to the watched models</a></p></body></html>`;
  return new NextResponse(html, { status: 400, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/** A cron job calls POST /api/poll with its CRON_SECRET instead of the Basic credentials. */
function isCronCall(request: NextRequest, pathname: string): boolean {
  return (
    pathname === "/api/poll" &&
    env.CRON_SECRET !== undefined &&
    bearerMatches(request.headers.get("authorization"), env.CRON_SECRET)
  );
}

function secured(response: NextResponse, csp: string): NextResponse {
  response.headers.set("Content-Security-Policy", csp);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Everything but the build's static files (their headers are set in next.config.ts).
  matcher: ["/((?!_next/static|_next/image).*)"],
};
