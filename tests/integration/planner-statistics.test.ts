import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { refreshStatisticsIfGrown } from "@/lib/db/statistics";
import { importUsage } from "@/lib/usage/import";
import { engines } from "../helpers/db";

// The planner's statistics of the bulk-written tables are refreshed by the writes that grow them
// (the embedded engine has no autovacuum to do it): after an import the planner knows the records
// and their judgements, and a write small against what it knows does not analyze again.

describe.each(engines)("planner statistics on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  beforeAll(async () => {
    opened = await engine.open();
  }, 120_000);
  afterAll(() => opened?.close());

  const believed = async (table: string) =>
    (await opened.db.$queryRaw<Array<{ n: number }>>`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = to_regclass(${`"${table}"`})`)[0].n;
  const lines = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) =>
      JSON.stringify({ id: `stats-${from + i}`, provider: "Chutes", model: "moonshotai/kimi-k2.5", dataset: "B3", input_tokens: 10, output_tokens: 20, cost: "0.001", occurred_at: "2026-12-01T10:00:00.000Z" }),
    ).join("\n");

  it("an import that grows the records by a tenth or more leaves the planner knowing them and their judgements", async () => {
    expect(await believed("UsageRecord")).toBeLessThanOrEqual(0);
    expect(await importUsage(opened.db, "a.jsonl", lines(0, 200))).toMatchObject({ accepted: 200 });
    expect(await believed("UsageRecord")).toBe(200);
    expect(await believed("ProvenanceJudgement")).toBe(200);
    // 19 more is under a tenth of 200: not analyzed again; 20 is.
    expect(await refreshStatisticsIfGrown(opened.db, "UsageRecord", 19)).toBe(false);
    expect(await importUsage(opened.db, "b.jsonl", lines(200, 30))).toMatchObject({ accepted: 30 });
    expect(await believed("UsageRecord")).toBe(230);
    expect(await refreshStatisticsIfGrown(opened.db, "UsageRecord", 0)).toBe(false);
  });
});
