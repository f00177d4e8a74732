import "server-only";
import type { Db } from "../db/engines";
import { refreshStatisticsIfGrown } from "../db/statistics";
import { factsStamp, judgeNewRecords, rejudge } from "../provenance/rejudge";
import { compactProvenanceTally } from "../provenance/tally";
import { MAX_REPORTED_ERRORS, parseUsageJsonl, type LineError } from "./parse";

// Imports a JSONL file of usage records. Records are keyed by dedupeKey (unique in the table) and
// inserted with ON CONFLICT DO NOTHING, so importing the same file again adds nothing, and a
// file that overlaps an earlier one adds only what is new.

export interface ImportResult {
  importId: number;
  filename: string;
  lines: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  errors: LineError[];
  /** New records that kept only their generation id: they await a lookup of OpenRouter's /generation. */
  awaitingLookup: number;
}

const BATCH = 5_000;

export interface ImportOptions {
  /** The saved view the pipeline ran under for this file (provenance); else the dataset's choice. */
  viewId?: number | null;
}

export async function importUsage(db: Db, filename: string, body: string, options: ImportOptions = {}): Promise<ImportResult> {
  const parsed = parseUsageJsonl(body);
  const errors = parsed.errors.slice(0, MAX_REPORTED_ERRORS);
  const result = await db.$transaction(async (tx) => {
    const created = await tx.usageImport.create({
      data: { filename, lines: parsed.lines, accepted: 0, duplicates: 0, rejected: parsed.errors.length, errors: [], viewId: options.viewId ?? null },
    });
    // Each new generation gets its provenance class as it is inserted, in this transaction, so no
    // record is ever stored unjudged. A record's judgement needs nothing the insert gives it, so a
    // batch is judged first (in memory, once per time span: what a re-import judges again costs
    // little) and one statement inserts the new records, their judgements and the page's totals of
    // what it added (the tally), each group once under its class. The tally's insert triggers,
    // which would count the same rows again (under "not judged", then moved to the class by looking
    // each record up), stand aside for this transaction (migration
    // 20261207170000_import_writes_its_tally).
    const judging = await judgeNewRecords(tx, created.viewId, parsed.records);
    await tx.$executeRawUnsafe(`SET LOCAL routeboard.tally_written_by_caller = 'on'`);
    let accepted = 0;
    let awaitingLookup = 0;
    const datasets = new Set<string>();
    for (let i = 0; i < parsed.records.length; i += BATCH) {
      const slice = parsed.records.slice(i, i + BATCH);
      const judgements = await judging.judge(
        slice.map((r) => ({ provider: r.provider, tag: r.tag, modelId: r.modelId, occurredAt: r.occurredAt, dataset: r.dataset, awaitsLookup: r.lookup !== undefined })),
      );
      // The rows passed as one JSON parameter: Prisma's createMany sent them as bound parameters
      // and managed about 700 records/s; this keeps exact decimals (the cost travels as text) and
      // ON CONFLICT DO NOTHING still drops what was imported before (and judges and counts only
      // what it added).
      const batch = slice.map((r, n) => ({
        k: r.dedupeKey,
        p: r.provider,
        m: r.modelId,
        d: r.dataset,
        i: String(r.inputTokens),
        o: String(r.outputTokens),
        c: r.costUsd.toString(),
        t: r.occurredAt?.toISOString() ?? null,
        g: r.tag,
        j: judgements[n].class,
        jd: judgements[n].detail,
        v: judgements[n].viewId,
      }));
      const inserted = await tx.$queryRaw<Array<{ id: number; k: string }>>`
        WITH x AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(batch)}::jsonb)
            AS x(k text, p text, m text, d text, i text, o text, c text, t text, g text, j text, jd text, v int)),
        added AS (
          INSERT INTO "UsageRecord" ("dedupeKey", "importId", provider, "modelId", dataset, "inputTokens", "outputTokens", "costUsd", "occurredAt", tag)
          SELECT x.k, ${created.id}, x.p, x.m, x.d, x.i::bigint, x.o::bigint, x.c::numeric, x.t::timestamptz, x.g FROM x
          ON CONFLICT ("dedupeKey") DO NOTHING
          RETURNING id, "dedupeKey", dataset, provider, "modelId", "occurredAt", "inputTokens", "outputTokens", "costUsd"),
        judged AS (SELECT added.*, x.j, x.jd, x.v FROM added JOIN x ON x.k = added."dedupeKey"),
        judgements AS (
          INSERT INTO "ProvenanceJudgement" ("recordId", class, "viewId", detail, "judgedAt")
          SELECT id, j, v, jd, ${judging.computedAt} FROM judged),
        tally AS (
          INSERT INTO "ProvenanceTally" (dataset, class, provider, "modelId", day, samples, "inputTokens", "outputTokens", "costUsd")
          SELECT COALESCE(dataset, ''), j, provider, "modelId", ("occurredAt" AT TIME ZONE 'UTC')::date,
                 count(*), sum("inputTokens"), sum("outputTokens"), sum("costUsd")
            FROM judged
           GROUP BY 1, 2, 3, 4, 5)
        SELECT id, "dedupeKey" AS k FROM added`;
      accepted += inserted.length;
      // The records this batch added (not those imported before), each with its new id.
      const byKey = new Map(slice.map((r) => [r.dedupeKey, r]));
      const added = inserted.map(({ id, k }) => {
        const record = byKey.get(k);
        if (!record) throw new Error(`import: inserted record ${k} is not in its batch`);
        return { id, record };
      });
      for (const { record } of added) datasets.add(record.dataset ?? "");
      // The id-only ones join the lookup queue.
      const lookups = added.flatMap(({ id, record }) => (record.lookup ? [{ r: id, g: record.lookup.generationId, m: record.lookup.missing }] : []));
      if (lookups.length > 0) {
        awaitingLookup += await tx.$executeRaw`
          INSERT INTO "GenerationLookup" ("recordId", "generationId", "missing")
          SELECT x.r, x.g, ARRAY(SELECT jsonb_array_elements_text(x.m))
            FROM jsonb_to_recordset(${JSON.stringify(lookups)}::jsonb) AS x(r int, g text, m jsonb)
          ON CONFLICT ("recordId") DO NOTHING`;
      }
    }
    // Whatever this transaction writes from here on is counted by the triggers again.
    await tx.$executeRawUnsafe(`SET LOCAL routeboard.tally_written_by_caller = 'off'`);
    const finished = await judging.finish(datasets);
    const duplicates = parsed.records.length - accepted + parsed.duplicatesInFile;
    await tx.usageImport.update({
      where: { id: created.id },
      data: { accepted, duplicates, errors: errors.map((e) => ({ line: e.line, message: e.message })) },
    });
    return { importId: created.id, filename, lines: parsed.lines, accepted, duplicates, rejected: parsed.errors.length, errors, awaitingLookup, stamp: finished.factsStamp };
  }, { timeout: 60_000 });
  const { stamp, ...imported } = result;
  if (result.accepted > 0) {
    // A fact that landed while the transaction ran re-judged what it could see, not these records.
    if ((await factsStamp(db)) !== stamp) await rejudge(db, { importId: result.importId });
    // The import added a few tally rows a batch: folded into one a group for the page's read.
    await compactProvenanceTally(db);
    await refreshStatisticsIfGrown(db, "UsageRecord", result.accepted);
    await refreshStatisticsIfGrown(db, "ProvenanceJudgement", result.accepted);
  }
  return imported;
}
