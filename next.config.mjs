// JavaScript, not TypeScript: Next.js compiles a next.config.ts with its native SWC binding at every
// `next start`, and that binding then stays mapped in the server, about 25 MB resident (issue 25;
// bench/memory.md, seventh round). The annotation below gives editors its type; Next.js validates it.
import { PROXY_BODY_BUFFER_BYTES, SECURITY_HEADERS, STATIC_CSP } from "./lib/security/static-config.mjs";

/** @type {import("next").NextConfig} */
const nextConfig = {
  // PGlite loads a WASM build of PostgreSQL at run time; pg has optional native parts;
  // proper-lockfile (the embedded folder's lock) hooks process exit and patches fs via graceful-fs.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg", "proper-lockfile"],
  poweredByHeader: false,
  typedRoutes: false,
  experimental: {
    // Above the largest body any route accepts, so that a body Next.js cuts for the proxy is still
    // seen as too large and refused (lib/security/body-limit.ts), never read as if it were whole.
    proxyClientMaxBodySize: PROXY_BODY_BUFFER_BYTES,
  },
  // Pages and API routes get their headers (and a per-request CSP nonce) from proxy.ts; the
  // build's static files, which the proxy skips, get them here.
  async headers() {
    const headers = Object.entries({ ...SECURITY_HEADERS, "Content-Security-Policy": STATIC_CSP }).map(
      ([key, value]) => ({ key, value }),
    );
    return [
      { source: "/_next/static/:path*", headers },
      { source: "/_next/image", headers },
    ];
  },
};

export default nextConfig;
