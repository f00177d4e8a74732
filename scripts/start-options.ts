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
 * glibc's malloc arenas `npm start` allows the server: 2 unless MALLOC_ARENA_MAX is set. By default
 * glibc keeps up to 8 per core for the threads that allocate (V8's GC helpers, libuv's pool, the
 * PostgreSQL driver), each holding its freed memory; two hold about 30 MB less at the peak under
 * load, at the same CPU per request (bench/memory.md, sixth round).
 */
export function serverMallocArenas(env: Record<string, string | undefined> = process.env): string {
  return env.MALLOC_ARENA_MAX?.trim() || "2";
}
