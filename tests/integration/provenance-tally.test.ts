import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { chooseDatasetView } from "@/lib/provenance/choices";
import { PROVENANCE_CLASSES } from "@/lib/provenance/judge";
import { listDatasets, NOT_LOOKED_UP, provenanceSummary } from "@/lib/provenance/queries";
import { rejudge } from "@/lib/provenance/rejudge";
import { compactProvenanceTally } from "@/lib/provenance/tally";
import { createView } from "@/lib/saved-views";
import { importUsage } from "@/lib/usage/import";
import { DEFAULT_PLAN } from "@/lib/view-state/budget";
import { seedWatchedModels } from "@/lib/watched-models";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";
import { reconcile } from "@/lib/activity/reconcile";
import { usageByDataset, usageByProvider, usageTotals } from "@/lib/usage/queries";
import { countedFromRecords, keptByTally, usageCountedFromRecords, usageLine } from "../helpers/tally-judge";

// The provenance page reads totals PostgreSQL keeps as records and judgements are written (issue
// 21: a first render that does not scan the records). After every kind of write a pipeline's data
// meets (an import, a pass of judgements, a view chosen, a lookup's answer filling a record, a
// judgement or an import deleted, a TRUNCATE, a compaction, and on the server writers racing each
// other), the totals must equal a count of the records themselves (tests/helpers/tally-judge.ts).

const KIMI = "moonshotai/kimi-k2.5";
const PROVIDERS = ["Chutes", "Novita", "DeepInfra", "Parasail"];

/** Records over three datasets (one unnamed), four providers, three days and none, some id-only. */
function lines(prefix: string, n: number, from: Date): string {
  return Array.from({ length: n }, (_, i) => {
    const id = `gen-${prefix}-${i}`;
    if (i % 11 === 0) return JSON.stringify({ id, dataset: "B4" }); // kept only its id: awaits a lookup
    return JSON.stringify({
      id,
      provider: PROVIDERS[i % 4],
      model: KIMI,
      ...(i % 5 === 0 ? {} : { dataset: i % 3 === 0 ? "B3" : "B4" }),
      input_tokens: 100 + i,
      output_tokens: 1000 + 7 * i,
      cost: `0.000${(i % 9) + 1}2345`,
      ...(i % 13 === 0 ? {} : { occurred_at: new Date(from.getTime() + (i % 3) * 86_400_000 + i * 60_000).toISOString() }),
    });
  }).join("\n");
}

describe.each(engines)("the provenance page's totals kept on the $name engine", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  // The pipeline's records are generated after the snapshot, so the view's rules decide classes.
  let from: Date;
  const same = async () => {
    const counted = await countedFromRecords(opened.db);
    expect(await keptByTally(opened.db)).toEqual(counted);
    await spendPageSame();
    return counted;
  };
  // The spend page's usage tables and the reconciliation's imported dollars read the same tally:
  // they must equal sums over the records at every step too (all of these records fall in the
  // reconciliation's window of 60 days before a day 10 days after `from`).
  const spendPageSame = async () => {
    const now = new Date(from.getTime() + 10 * 86_400_000);
    const windowStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 60 * 86_400_000);
    const expected = await usageCountedFromRecords(opened.db, windowStart);
    const [providers, datasets, totals, days] = await Promise.all([
      usageByProvider(opened.db),
      usageByDataset(opened.db, DEFAULT_PLAN),
      usageTotals(opened.db),
      reconcile(opened.db, null, now, 60),
    ]);
    expect(providers.map((p) => usageLine([p.provider ?? "(no provider)", p.modelId ?? "(no model)", p.requests, p.inputTokens, p.outputTokens, p.costUsd])).sort()).toEqual(expected.providers);
    const named = datasets.filter((d) => d.requests > 0).map((d) => usageLine([d.dataset === "(no dataset)" ? "(none)" : d.dataset, d.requests, d.inputTokens, d.outputTokens, d.costUsd]));
    expect(named.sort()).toEqual(expected.datasets);
    expect(usageLine([totals.records, totals.costUsd])).toEqual(expected.total);
    expect(days.filter((d) => d.importedUsd !== null).map((d) => usageLine([d.date, d.importedRecords, d.importedUsd])).sort()).toEqual(expected.days);
  };
  const rows = async () => Number((await opened.db.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM "ProvenanceTally"`)[0].n);

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, [KIMI]);
    await runPollCycle(opened.db, createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 2000, baseDelayMs: 5, maxAttempts: 2 }), { trigger: "test" });
    from = new Date(Date.now() + 60_000);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });

  it("an import judges its records as it stores them (none is left not judged), and the page reads the same", async () => {
    const result = await importUsage(opened.db, "first.jsonl", lines("first", 300, from));
    expect(result).toMatchObject({ accepted: 300, rejected: 0 });
    const counted = await same();
    expect(counted.some((g) => g.includes("| (not judged) |"))).toBe(false);
    expect(counted.length).toBeGreaterThan(20);
    const summary = await provenanceSummary(opened.db, null, DEFAULT_PLAN);
    expect(summary.totals.reduce((n, t) => n + t.samples, 0) + summary.unjudged).toBe(300);
    expect(summary.totals.find((t) => t.class === "awaiting")?.samples).toBe(28); // i % 11 === 0 below 300
    expect(await listDatasets(opened.db)).toEqual(["", "B3", "B4"]);
    // The page's totals per class equal the records' own, dataset by dataset.
    for (const dataset of [null, "", "B3", "B4"]) {
      const s = await provenanceSummary(opened.db, dataset, DEFAULT_PLAN);
      const direct = await opened.db.$queryRaw<Array<{ class: string; n: number; output: string; cost: string }>>`
        SELECT j.class, count(*)::int AS n, sum(r."outputTokens")::text AS output, round(sum(r."costUsd"), 2)::text AS cost
          FROM "UsageRecord" r JOIN "ProvenanceJudgement" j ON j."recordId" = r.id
         WHERE ${dataset}::text IS NULL OR coalesce(r.dataset, '') = ${dataset}::text
         GROUP BY 1`;
      const want = Object.fromEntries(PROVENANCE_CLASSES.map((c) => [c, { samples: 0, outputTokens: "0", costUsd: "0.00" }]));
      for (const d of direct) want[d.class] = { samples: d.n, outputTokens: d.output, costUsd: d.cost };
      expect(Object.fromEntries(s.totals.map((t) => [t.class, { samples: t.samples, outputTokens: t.outputTokens, costUsd: t.costUsd }]))).toEqual(want);
      // The chart's and table's breakdowns, per provider and per UTC day, equal the records' own too.
      const byProvider = await opened.db.$queryRaw<Array<{ provider: string | null; class: string; samples: number; outputTokens: string }>>`
        SELECT r.provider, j.class, count(*)::int AS samples, sum(r."outputTokens")::text AS "outputTokens"
          FROM "UsageRecord" r JOIN "ProvenanceJudgement" j ON j."recordId" = r.id
         WHERE ${dataset}::text IS NULL OR coalesce(r.dataset, '') = ${dataset}::text
         GROUP BY 1, 2`;
      const byDay = await opened.db.$queryRaw<Array<{ day: string | null; class: string; samples: number; outputTokens: string }>>`
        SELECT to_char(timezone('UTC', r."occurredAt"), 'YYYY-MM-DD') AS day, j.class, count(*)::int AS samples, sum(r."outputTokens")::text AS "outputTokens"
          FROM "UsageRecord" r JOIN "ProvenanceJudgement" j ON j."recordId" = r.id
         WHERE ${dataset}::text IS NULL OR coalesce(r.dataset, '') = ${dataset}::text
         GROUP BY 1, 2`;
      const sorted = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();
      expect(sorted(s.byProvider)).toEqual(sorted(byProvider.map((r) => ({ provider: r.provider ?? NOT_LOOKED_UP, class: r.class, samples: r.samples, outputTokens: r.outputTokens }))));
      expect(sorted(s.byDay)).toEqual(sorted(byDay.map((r) => ({ day: r.day ?? "no time", class: r.class, samples: r.samples, outputTokens: r.outputTokens }))));
      expect(s.byProvider.length).toBeGreaterThan(1);
      expect(s.byDay.length).toBeGreaterThan(dataset === "" ? 0 : 1);
    }
  });

  it("records written before their pass count as not judged until it runs", async () => {
    // The records land in the import's transaction; before its pass they count as not judged.
    await opened.db.$executeRaw`
      INSERT INTO "UsageRecord" ("dedupeKey", "importId", provider, "modelId", dataset, "inputTokens", "outputTokens", "costUsd", "occurredAt")
      SELECT 'id:raw-' || g, (SELECT min(id) FROM "UsageImport"), 'Chutes', ${KIMI}, 'B3', 10, 20, 0.5, '2026-11-29T12:00:00Z'
        FROM generate_series(1, 40) AS g`;
    await same();
    expect((await provenanceSummary(opened.db, "B3", DEFAULT_PLAN)).unjudged).toBe(40);
    await rejudge(opened.db, { dataset: "B3" });
    await same();
    expect((await provenanceSummary(opened.db, "B3", DEFAULT_PLAN)).unjudged).toBe(0);
  });

  it("a view chosen for a dataset changes classes, and the totals follow", async () => {
    const before = await countedFromRecords(opened.db);
    const slug = (await createView(opened.db, { name: "Only Chutes", modelId: KIMI, query: "xp=novita,deepinfra,parasail" })).slug;
    expect(await chooseDatasetView(opened.db, { dataset: "B4", view: slug })).toEqual({ ok: true });
    const after = await same();
    expect(after).not.toEqual(before);
  });

  it("a lookup's answer fills a record's provider, model, tokens, cost and time: it moves groups", async () => {
    const changed = await opened.db.$executeRaw`
      UPDATE "UsageRecord" SET provider = 'Novita', "modelId" = ${KIMI}, "inputTokens" = 321, "outputTokens" = 4321, "costUsd" = 0.00123456, "occurredAt" = '2026-11-30T08:00:00Z'
       WHERE provider IS NULL AND id % 2 = 0`;
    expect(changed).toBeGreaterThan(5);
    await same();
    await rejudge(opened.db, { dataset: "B4" });
    await same();
  });

  it("a judgement deleted on its own returns its record to not judged; an import deleted takes its records away", async () => {
    await opened.db.$executeRaw`DELETE FROM "ProvenanceJudgement" WHERE "recordId" IN (SELECT id FROM "UsageRecord" WHERE dataset = 'B3' ORDER BY id LIMIT 7)`;
    await same();
    expect((await provenanceSummary(opened.db, "B3", DEFAULT_PLAN)).unjudged).toBe(7);
    await importUsage(opened.db, "second.jsonl", lines("second", 120, from));
    await same();
    // Deleting an import deletes its records and (by cascade) their judgements.
    await opened.db.$executeRaw`DELETE FROM "UsageImport" WHERE filename = 'second.jsonl'`;
    await same();
    expect((await provenanceSummary(opened.db, null, DEFAULT_PLAN)).totals.reduce((n, t) => n + t.samples, 0)).toBe(340 - 7);
  });

  it("two generations of one group that swap classes in one statement move their tokens, though no count changes", async () => {
    // Two judged records of one dataset, provider, day and class, with different tokens.
    const [{ x, y, cls }] = await opened.db.$queryRaw<Array<{ x: number; y: number; cls: string }>>`
      SELECT a.id AS x, b.id AS y, ja.class AS cls
        FROM "UsageRecord" a
        JOIN "UsageRecord" b ON b.dataset = a.dataset AND b.provider = a.provider AND b.id > a.id AND b."inputTokens" <> a."inputTokens"
         AND (b."occurredAt" AT TIME ZONE 'UTC')::date = (a."occurredAt" AT TIME ZONE 'UTC')::date
        JOIN "ProvenanceJudgement" ja ON ja."recordId" = a.id
        JOIN "ProvenanceJudgement" jb ON jb."recordId" = b.id AND jb.class = ja.class
       WHERE ja.class <> 'suspect'
       ORDER BY a.id LIMIT 1`;
    await opened.db.$executeRaw`UPDATE "ProvenanceJudgement" SET class = 'suspect' WHERE "recordId" = ${y}`;
    await same();
    await opened.db.$executeRaw`
      UPDATE "ProvenanceJudgement" SET class = CASE WHEN "recordId" = ${y} THEN ${cls} ELSE 'suspect' END WHERE "recordId" IN (${x}, ${y})`;
    await same();
  });

  it("compaction folds each group into one row without changing a total", async () => {
    const counted = await same();
    expect(await rows()).toBeGreaterThan(counted.length);
    expect(await compactProvenanceTally(opened.db)).toBeGreaterThan(0);
    expect(await same()).toEqual(counted);
    expect(await rows()).toBe(counted.length);
    // Nothing left to fold: nothing is rewritten.
    expect(await compactProvenanceTally(opened.db)).toBe(0);
  });

  it("a TRUNCATE of the judgements is recounted from the records", async () => {
    await opened.db.$executeRawUnsafe(`TRUNCATE "ProvenanceJudgement"`);
    const counted = await same();
    expect(counted.every((g) => g.includes("| (not judged) |"))).toBe(true);
    await rejudge(opened.db, {});
    await same();
  });

  // Two connections racing: the embedded engine has one, so the server's pass alone runs this.
  if (engine.name === "postgres") {
    /** Resolves once a session of this database waits for a lock (polled every 20 ms, up to 30 s). */
    const someoneWaitsForALock = async (otherwise: string) => {
      for (let waited = 0; ; waited += 20) {
        const [{ n }] = await opened.db.$queryRaw<Array<{ n: number }>>`
          SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
        if (n > 0) return;
        if (waited > 30_000) throw new Error(otherwise);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    it("a pass that judges a record while a lookup's change of it is still uncommitted waits for it, and the totals stay exact", async () => {
      // A Chutes record the view includes (unverified), whose provider then became Novita (which the
      // view excludes) without a pass yet: the next pass will move it from unverified to excluded.
      const [{ id }] = await opened.db.$queryRaw<Array<{ id: number }>>`
        SELECT r.id FROM "UsageRecord" r JOIN "ProvenanceJudgement" j ON j."recordId" = r.id
         WHERE r.dataset = 'B4' AND r.provider = 'Chutes' AND r."occurredAt" IS NOT NULL AND j.class = 'unverified' ORDER BY r.id LIMIT 1`;
      await opened.db.$executeRaw`UPDATE "UsageRecord" SET provider = 'Novita' WHERE id = ${id}`;
      // The lookup's transaction changes it again (to Parasail) and is slow to commit; the pass starts
      // meanwhile, on another connection, and comes to write the record's judgement (excluded).
      let committedAt = 0;
      let pass: Promise<{ written: number; at: number }> | undefined;
      await opened.db.$transaction(async (tx) => {
        await tx.$executeRaw`UPDATE "UsageRecord" SET provider = 'Parasail', "outputTokens" = "outputTokens" + 5 WHERE id = ${id}`;
        pass = rejudge(opened.db, { recordIds: [id] }).then((r) => ({ written: r.written, at: Date.now() }));
        // Commit only once the pass waits on the record's lock (it has read the record as Novita).
        await someoneWaitsForALock("the pass never waited for the record's lock");
        committedAt = Date.now();
      });
      const done = await (pass as Promise<{ written: number; at: number }>);
      expect(done.written).toBe(1);
      expect((await opened.db.provenanceJudgement.findUniqueOrThrow({ where: { recordId: id } })).class).toBe("excluded");
      // It waited for the record (locked FOR SHARE before the judgement is written) ...
      expect(done.at).toBeGreaterThanOrEqual(committedAt);
      // ... so the judgement's move is counted where the record is now: no group lost or gained one.
      await same();
      await rejudge(opened.db, { recordIds: [id] });
      await same();
    }, 60_000);

    it("a view chosen for a dataset while an import of it waits to store its records: the import judges them again under it", async () => {
      const slug = (await createView(opened.db, { name: "Chosen mid-import", modelId: KIMI, query: "xp=novita" })).slug;
      const view = await opened.db.savedView.findUniqueOrThrow({ where: { slug } });
      const body = Array.from({ length: 20 }, (_, i) =>
        JSON.stringify({ id: `gen-mid-${i}`, provider: "Chutes", model: KIMI, dataset: "B8", input_tokens: 10, output_tokens: 20, cost: "0.0001", occurred_at: new Date(from.getTime() + i * 60_000).toISOString() }),
      ).join("\n");
      let imported: ReturnType<typeof importUsage> | undefined;
      // Another transaction holds the records' table against inserts: the import has read the facts
      // (no view for B8) and waits to insert; the view is chosen meanwhile, and its own pass cannot
      // see the import's records. Then the table is let go.
      await opened.db.$transaction(
        async (tx) => {
          await tx.$executeRawUnsafe(`LOCK TABLE "UsageRecord" IN SHARE MODE`);
          imported = importUsage(opened.db, "mid.jsonl", body);
          await someoneWaitsForALock("the import never waited for the table");
          expect(await chooseDatasetView(opened.db, { dataset: "B8", view: slug })).toEqual({ ok: true });
        },
        { timeout: 60_000 },
      );
      expect(await (imported as ReturnType<typeof importUsage>)).toMatchObject({ accepted: 20 });
      const judged = await opened.db.provenanceJudgement.findMany({ where: { record: { dataset: "B8" } } });
      expect(judged).toHaveLength(20);
      expect(new Set(judged.map((j) => j.viewId))).toEqual(new Set([view.id]));
      expect(await rejudge(opened.db, { dataset: "B8" })).toMatchObject({ judged: 20, written: 0 });
      await same();
    }, 60_000);
  }
});
