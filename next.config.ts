import type { NextConfig } from "next";
import { SECURITY_HEADERS, STATIC_CSP } from "./lib/security/headers";

const nextConfig: NextConfig = {
  // PGlite loads a WASM build of PostgreSQL at run time; pg has optional native parts;
  // proper-lockfile (the embedded folder's lock) hooks process exit and patches fs via graceful-fs.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg", "proper-lockfile"],
  poweredByHeader: false,
  typedRoutes: false,
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
