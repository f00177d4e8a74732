import type { NextConfig } from "next";
import { PROXY_BODY_BUFFER_BYTES } from "./lib/security/body-limit";
import { SECURITY_HEADERS, STATIC_CSP } from "./lib/security/headers";

const nextConfig: NextConfig = {
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
