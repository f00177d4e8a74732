import "server-only";
import type { Db } from "../db/engines";
import { refreshStatisticsIfGrown } from "../db/statistics";
import { rejudge } from "../provenance/rejudge";
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
    let accepted = 0;
    let awaitingLookup = 0;
    for (let i = 0; i < parsed.records.length; i += BATCH) {
      // One statement per batch, the rows passed as one JSON parameter: Prisma's createMany sent
      // them as bound parameters and managed about 700 records/s; this keeps exact decimals (the
      // cost travels as text) and ON CONFLICT DO NOTHING still drops what was imported before.
      const batch = parsed.records.slice(i, i + BATCH).map((r) => ({
        k: r.dedupeKey,
        p: r.provider,
        m: r.modelId,
        d: r.dataset,
        i: String(r.inputTokens),
        o: String(r.outputTokens),
        c: r.costUsd.toString(),
        t: r.occurredAt?.toISOString() ?? null,
        g: r.tag,
      }));
      accepted += await tx.$executeRaw`
        INSERT INTO "UsageRecord" ("dedupeKey", "importId", provider, "modelId", dataset, "inputTokens", "outputTokens", "costUsd", "occurredAt", tag)
        SELECT x.k, ${created.id}, x.p, x.m, x.d, x.i::bigint, x.o::bigint, x.c::numeric, x.t::timestamptz, x.g
          FROM jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) AS x(k text, p text, m text, d text, i text, o text, c text, t text, g text)
        ON CONFLICT ("dedupeKey") DO NOTHING`;
      // The id-only records this import added (not those already imported) join the lookup queue.
      const lookups = parsed.records
        .slice(i, i + BATCH)
        .filter((r) => r.lookup)
        .map((r) => ({ k: r.dedupeKey, g: r.lookup?.generationId, m: r.lookup?.missing ?? [] }));
      if (lookups.length > 0) {
        awaitingLookup += await tx.$executeRaw`
          INSERT INTO "GenerationLookup" ("recordId", "generationId", "missing")
          SELECT r.id, x.g, ARRAY(SELECT jsonb_array_elements_text(x.m))
            FROM jsonb_to_recordset(${JSON.stringify(lookups)}::jsonb) AS x(k text, g text, m jsonb)
            JOIN "UsageRecord" r ON r."dedupeKey" = x.k AND r."importId" = ${created.id}
          ON CONFLICT ("recordId") DO NOTHING`;
      }
    }
    const duplicates = parsed.records.length - accepted + parsed.duplicatesInFile;
    await tx.usageImport.update({
      where: { id: created.id },
      data: { accepted, duplicates, errors: errors.map((e) => ({ line: e.line, message: e.message })) },
    });
    return { importId: created.id, filename, lines: parsed.lines, accepted, duplicates, rejected: parsed.errors.length, errors, awaitingLookup };
  }, { timeout: 60_000 });
  // Each new generation gets its provenance class (a re-import adds no record, so judges nothing).
  if (result.accepted > 0) {
    await rejudge(db, { importId: result.importId });
    await refreshStatisticsIfGrown(db, "UsageRecord", result.accepted);
  }
  return result;
}
