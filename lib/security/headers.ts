// The security headers of every response. The Content-Security-Policy carries a per-request nonce
// for scripts (Next.js reads it from the request's CSP header and puts it on its own scripts);
// 'unsafe-eval' only in development, where React needs it for its debugging stacks. Inline style
// attributes (charts) are allowed: styles cannot run code.

export function contentSecurityPolicy(nonce: string, options: { dev: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

// STATIC_CSP (responses that are not pages: nothing may run or frame them) and SECURITY_HEADERS
// (on every response) are shared with next.config.mjs, which cannot read TypeScript.
export { SECURITY_HEADERS, STATIC_CSP } from "./static-config.mjs";

/** For the few plain pages answered before Next.js renders (a broken link): inline styles, no scripts. */
export const PLAIN_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

