import { readFileSync } from "node:fs";

/**
 * The Node flags `npm start` gives the server (its heap limits, see "Memory" in docs/operations.md):
 * package.json's `config.heapEmbedded` on the embedded database, `config.heapServer` when
 * DATABASE_URL names a PostgreSQL server (there the database's memory is another process's, and the
 * server's own heap can be larger for its speed). Read from package.json so that the demo, the
 * browser tests and `npm run load` start it as npm start does; any NODE_OPTIONS already set come
 * after them, and so win.
 */
export function serverNodeOptions(env: Record<string, string | undefined> = process.env): string {
  const config = (JSON.parse(readFileSync("package.json", "utf8")) as { config: { heapEmbedded: string; heapServer: string } }).config;
  const flags = env.DATABASE_URL ? config.heapServer : config.heapEmbedded;
  return [flags.trim(), env.NODE_OPTIONS ?? ""].join(" ").trim();
}

/**
 * glibc's malloc settings `npm start` gives the server, each unless the environment sets its own:
 * - MALLOC_ARENA_MAX=2, on either engine. By default glibc keeps up to 8 arenas per core for the
 *   threads that allocate (V8's GC helpers, libuv's pool, the PostgreSQL driver), each holding its
 *   freed memory; two hold about 30 MB less at the peak under load, at the same CPU per request
 *   (bench/memory.md, sixth round).
 * - On a PostgreSQL server (DATABASE_URL set), MALLOC_TRIM_THRESHOLD_ and MALLOC_MMAP_THRESHOLD_ at
 *   128 KiB, glibc's own starting values, made fixed: glibc otherwise raises them as large blocks
 *   are freed (up to 32 MB and 64 MB) and then keeps that much freed memory resident. Fixed, the
 *   server held 20-30 MB less after the warm-up, at the same CPU per request under the viewers'
 *   load (seventh round). Not on the embedded engine: there every block over 128 KiB (PGlite's
 *   query results) would be mapped and unmapped anew, and with a probe in progress the server spent
 *   10-25% more CPU per request.
 */
export function serverMallocEnv(env: Record<string, string | undefined> = process.env): Record<string, string> {
  const settings: Record<string, string> = { MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX?.trim() || "2" };
  for (const name of ["MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_"]) {
    const own = env[name]?.trim();
    if (own) settings[name] = own;
    else if (env.DATABASE_URL) settings[name] = "131072";
  }
  return settings;
}
