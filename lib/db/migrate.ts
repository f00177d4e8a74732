import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

// Applies the committed SQL files in prisma/migrations in order and records each in Prisma's own
// `_prisma_migrations` table (same columns, same sha256 checksum), so a machine with the Prisma
// CLI sees the same history. Used because the CLI's migrate needs a native engine that cannot be
// installed offline. Works on PGlite and on a PostgreSQL server alike.

export interface SqlConnection {
  /** Runs one or more statements without parameters. */
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

// Prisma Migrate takes the same advisory lock, so the CLI and this never run at once.
const PRISMA_MIGRATE_LOCK = 72707369;

export const defaultMigrationsDir = path.join(process.cwd(), "prisma", "migrations");

export async function readMigrations(dir = defaultMigrationsDir): Promise<Migration[]> {
  const entries = await readdir(/*turbopackIgnore: true*/ dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

export async function migrate(conn: SqlConnection, migrations: Migration[]): Promise<MigrateResult> {
  await conn.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);
  await conn.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK]);
  try {
    const rows = await conn.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations"
       WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    const applied: string[] = [];
    for (const m of migrations) {
      const checksum = done.get(m.name);
      if (checksum !== undefined) {
        if (checksum !== m.checksum) {
          console.warn(`[migrate] ${m.name} was edited after it was applied (checksum differs)`);
        }
        continue;
      }
      await conn.exec("BEGIN");
      try {
        await conn.exec(m.sql);
        await conn.query(
          `INSERT INTO "_prisma_migrations"
             (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, now(), $3, now(), 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await conn.exec("COMMIT");
      } catch (err) {
        await conn.exec("ROLLBACK");
        throw new Error(`Migration ${m.name} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(m.name);
    }
    return { applied, alreadyApplied: done.size };
  } finally {
    await conn.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK]);
  }
}
