import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { basicAuthMatches, bearerMatches, parseBasicAuthSetting } from "@/lib/security/basic-auth";
import { contentSecurityPolicy, SECURITY_HEADERS, STATIC_CSP } from "@/lib/security/headers";
import { checkSameOrigin } from "@/lib/security/origin";

// Runs before every page, API route and server action (Next 16's proxy, on the Node.js runtime):
// Basic auth when BASIC_AUTH is set, refusal of cross-origin writes, and the security headers with
// a fresh CSP nonce per request. Static build files get their headers from next.config.ts.

const credentials = env.BASIC_AUTH ? parseBasicAuthSetting(env.BASIC_AUTH) : null;
const PUBLIC_PATHS = new Set(["/api/health"]);

export function proxy(request: NextRequest): NextResponse {
  const { pathname } = request.nextUrl;
  const isApi = pathname === "/api" || pathname.startsWith("/api/");

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

  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = contentSecurityPolicy(nonce, { dev: env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", csp);
  return secured(NextResponse.next({ request: { headers: requestHeaders } }), csp);
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
