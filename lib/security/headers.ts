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

/** For responses that are not pages (static files, API answers): nothing may run or frame them. */
export const STATIC_CSP = "default-src 'none'; frame-ancestors 'none'";

/** For the few plain pages answered before Next.js renders (a broken link): inline styles, no scripts. */
export const PLAIN_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

export const SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
  "Cross-Origin-Opener-Policy": "same-origin",
};
