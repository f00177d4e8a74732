import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite loads a WASM build of PostgreSQL at run time; pg has optional native parts.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
