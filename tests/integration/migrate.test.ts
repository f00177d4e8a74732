import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import { migrate, readMigrations, type SqlConnection } from "@/lib/db/migrate";

const conn = (db: PGlite): SqlConnection => ({
  exec: async (sql) => void (await db.exec(sql)),
  query: async <T>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows,
});

describe("migrator", () => {
  it("applies the committed migrations once, in Prisma's own history table", async () => {
    const db = await PGlite.create();
    const migrations = await readMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    const first = await migrate(conn(db), migrations);
    expect(first.applied).toEqual(migrations.map((m) => m.name));
    const again = await migrate(conn(db), migrations);
    expect(again.applied).toEqual([]);
    const rows = await db.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows.rows.map((r) => r.migration_name)).toEqual(migrations.map((m) => m.name));
    expect(rows.rows.every((r) => r.finished_at !== null && /^[0-9a-f]{64}$/.test(r.checksum))).toBe(true);
    await db.close();
  });

  it("rolls a failing migration back whole and records nothing for it", async () => {
    const db = await PGlite.create();
    const bad = [{ name: "20990101000000_bad", sql: 'CREATE TABLE "A" (id int); SELECT broken_function();', checksum: "x".repeat(64) }];
    await expect(migrate(conn(db), bad)).rejects.toThrow(/Migration 20990101000000_bad failed/);
    const tables = await db.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'A'`);
    expect(tables.rows).toHaveLength(0);
    const history = await db.query(`SELECT 1 FROM "_prisma_migrations"`);
    expect(history.rows).toHaveLength(0);
    await db.close();
  });
});
