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

  it("moves stored judgements' details to their own table, one row per distinct judgement, and loses no reason", async () => {
    const db = await PGlite.create();
    const migrations = await readMigrations();
    const at = migrations.findIndex((m) => m.name === "20261207140000_provenance_details");
    expect(at).toBeGreaterThan(0);
    await migrate(conn(db), migrations.slice(0, at));
    await db.exec(`
      INSERT INTO "UsageImport" (id, filename, lines, accepted, duplicates, rejected, errors) VALUES (1, 'a.jsonl', 3, 3, 0, 0, '[]');
      INSERT INTO "UsageRecord" (id, "dedupeKey", "importId", provider, "inputTokens", "outputTokens", "costUsd") VALUES
        (1, 'id:a', 1, 'Chutes', 1, 2, 0.01), (2, 'id:b', 1, 'Chutes', 1, 2, 0.01), (3, 'id:c', 1, 'Novita', 1, 2, 0.01);
      INSERT INTO "ProvenanceJudgement" ("recordId", class, tag, ambiguous, reasons, "viewId", "verdictBefore", included, status, quantization, "judgedAt", digest) VALUES
        (1, 'trusted', 'chutes/int4', false, ARRAY['included', 'verified equivalent'], 7, 'equivalent', true, 0, 'int4', now(), 'hashA:7'),
        (2, 'trusted', 'chutes/int4', false, ARRAY['included', 'verified equivalent'], 8, 'equivalent', true, 0, 'int4', now(), 'hashA:8'),
        (3, 'excluded', 'novita/fp8', false, ARRAY['excluded: fp8'], 7, NULL, false, 0, 'fp8', now(), NULL);
    `);
    await migrate(conn(db), migrations);
    const judgements = await db.query<{ recordId: number; class: string; viewId: number; detail: string }>(
      `SELECT "recordId", class, "viewId", detail FROM "ProvenanceJudgement" ORDER BY "recordId"`,
    );
    expect(judgements.rows.slice(0, 2)).toEqual([
      { recordId: 1, class: "trusted", viewId: 7, detail: "hashA" },
      { recordId: 2, class: "trusted", viewId: 8, detail: "hashA" },
    ]);
    // A judgement stored before digests were kept gets a key no pass computes: the next pass writes it again.
    expect(judgements.rows[2].detail).toMatch(/^legacy-[0-9a-f]{32}$/);
    const details = await db.query<{ digest: string; class: string; tag: string; reasons: string[]; quantization: string }>(
      `SELECT digest, class, tag, reasons, quantization FROM "ProvenanceDetail" ORDER BY class DESC`,
    );
    expect(details.rows).toEqual([
      { digest: "hashA", class: "trusted", tag: "chutes/int4", reasons: ["included", "verified equivalent"], quantization: "int4" },
      { digest: judgements.rows[2].detail, class: "excluded", tag: "novita/fp8", reasons: ["excluded: fp8"], quantization: "fp8" },
    ]);
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
