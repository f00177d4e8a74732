// The security settings next.config.mjs needs, in plain JavaScript. next.config.mjs is JavaScript
// so that `next start` loads it as it is: a next.config.ts is compiled at every start by Next.js's
// native SWC binding, which then stays mapped in the server (about 25 MB resident, issue 25;
// bench/memory.md, seventh round). The TypeScript modules beside this one re-export these values
// with their types (static-config.d.mts), so proxy.ts and the routes use the very same ones.

/** The largest body any route accepts: a usage file (POST /api/usage). Routes set smaller limits. */
export const LARGEST_BODY_BYTES = 10 * 1024 * 1024;

/** Next.js's proxy body buffer (next.config.mjs): the largest body plus a margin of 1 MiB. */
export const PROXY_BODY_BUFFER_BYTES = LARGEST_BODY_BYTES + 1024 * 1024;

/** For responses that are not pages (static files, API answers): nothing may run or frame them. */
export const STATIC_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Headers every response carries (pages get theirs from proxy.ts, the build's static files from next.config.mjs). */
export const SECURITY_HEADERS = Object.freeze({
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
  "Cross-Origin-Opener-Policy": "same-origin",
});
