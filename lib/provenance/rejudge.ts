import "server-only";
import { createHash } from "node:crypto";
import Decimal from "decimal.js";
import { Prisma } from "../db/generated/client";
import type { Db, DbOrTx } from "../db/engines";
import { refreshStatisticsIfGrown } from "../db/statistics";
import { env } from "../env";
import type { GenerationFacts, Judgement } from "./judge";
import { loadTimelineInput } from "./load";
import { addTurnedSuspect, sayTurnedSuspect, type TurnedSuspect } from "./suspect-alerts";
import { compactProvenanceTally } from "./tally";
import { buildTimeline, spanJudge, type Timeline } from "./timeline";

// Judges imported generations and stores each one's class (ProvenanceJudgement, one narrow row per
// usage record, written when its judgement changes, pointing at the judgement's details, stored
// once in ProvenanceDetail; ProvenanceComputed says when each dataset was last computed). Records
// are read and written in id-ordered batches, so memory stays bounded however many there are; each
// view's timeline is built once per pass from the facts over the span its records cover, and each
// time span between two of its facts is judged once (spanJudge). An import judges its new records
// as it inserts them (judgeNewRecords, in its own transaction), the same way, without reading them
// back.

export interface RejudgeScope {
  /** Only the records of one import (after it lands). */
  importId?: number;
  /** Only the records judged under a view of this model (after one of its facts changed). */
  modelId?: string;
  /** Only the records of this dataset ("" for those without one). */
  dataset?: string;
  /** Only these records (after their lookups answered). */
  recordIds?: number[];
}

export interface RejudgeResult {
  judged: number;
  /** Of those, the records whose judgement (or view) changed, or that had none: the rows written. */
  written: number;
  byClass: Record<string, number>;
  computedAt: string;
  ms: number;
}

const BATCH = 5_000;
const COMPACT_EVERY = 50;

/** The view each record was generated under: its import's, else its dataset's choice. */
const VIEW_OF = Prisma.sql`COALESCE(i."viewId", c."viewId")`;
const FROM = Prisma.sql`FROM "UsageRecord" r
  JOIN "UsageImport" i ON i.id = r."importId"
  LEFT JOIN "ProvenanceViewChoice" c ON c.dataset = COALESCE(r.dataset, '')`;

function where(scope: RejudgeScope): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (scope.importId !== undefined) parts.push(Prisma.sql`r."importId" = ${scope.importId}`);
  if (scope.recordIds !== undefined) parts.push(scope.recordIds.length ? Prisma.sql`r.id IN (${Prisma.join(scope.recordIds)})` : Prisma.sql`false`);
  if (scope.dataset !== undefined) parts.push(Prisma.sql`COALESCE(r.dataset, '') = ${scope.dataset}`);
  if (scope.modelId !== undefined) parts.push(Prisma.sql`${VIEW_OF} IN (SELECT id FROM "SavedView" WHERE "modelId" = ${scope.modelId})`);
  return parts.length ? Prisma.sql`AND ${Prisma.join(parts, " AND ")}` : Prisma.empty;
}

export interface RejudgeOptions {
  graceMinutes?: number;
  now?: Date;
  /** Called after each batch with the records judged so far and how many the scope holds. */
  onProgress?: (judged: number, total: number) => Promise<void>;
}

export async function rejudge(db: Db, scope: RejudgeScope = {}, options: RejudgeOptions = {}): Promise<RejudgeResult> {
  const started = Date.now();
  const graceMinutes = options.graceMinutes ?? env.PROVENANCE_GRACE_MINUTES;
  const computedAt = options.now ?? new Date();
  const filter = where(scope);

  // One timeline per view in use, over the span of its records (and the grace before); the counts
  // (with the records under no view) say how many the pass will judge.
  const groups = await db.$queryRaw<Array<ViewSpan | (Omit<ViewSpan, "view_id"> & { view_id: null })>>`
    SELECT v.id AS view_id, v.slug, v.name, v."modelId" AS model_id, min(r."occurredAt") AS first, max(r."occurredAt") AS last, count(*)::int AS records
      ${FROM}
      LEFT JOIN "SavedView" v ON v.id = ${VIEW_OF}
     WHERE true ${filter}
     GROUP BY v.id, v.slug, v.name, v."modelId"`;
  const spans = groups.filter((g): g is ViewSpan => g.view_id !== null);
  const total = groups.reduce((n, g) => n + g.records, 0);

  const byClass: Record<string, number> = { trusted: 0, unverified: 0, suspect: 0, excluded: 0, awaiting: 0 };
  const judgeOf = spanJudge(await loadViews(db, spans, graceMinutes), graceMinutes);
  let judged = 0;
  let written = 0;
  let writes = 0;
  const datasets = new Set<string>();
  let last = 0;
  const stored = new Set<string>();
  for (;;) {
    const batch = await db.$queryRaw<
      Array<{ id: number; provider: string | null; tag: string | null; model_id: string | null; occurred_at: Date | null; dataset: string; view_id: number | null; lookup_state: string | null; lookup_attempts: number | null; lookup_error: string | null; detail: string | null; judged_view: number | null; judged_class: string | null; input_tokens: string | null; output_tokens: string | null; cost_usd: string | null }>
    >`
      SELECT r.id, r.provider, r.tag, r."modelId" AS model_id, r."occurredAt" AS occurred_at, COALESCE(r.dataset, '') AS dataset, ${VIEW_OF} AS view_id,
             l.state AS lookup_state, l.attempts AS lookup_attempts, l."lastError" AS lookup_error,
             pj.detail, pj."viewId" AS judged_view, pj.class AS judged_class,
             -- What a trusted record that turns suspect adds to its view's alert (lib/provenance/suspect-alerts.ts).
             CASE WHEN pj.class = 'trusted' THEN r."inputTokens"::text END AS input_tokens,
             CASE WHEN pj.class = 'trusted' THEN r."outputTokens"::text END AS output_tokens,
             CASE WHEN pj.class = 'trusted' THEN r."costUsd"::text END AS cost_usd
        ${FROM}
        -- The bound on each joined table's key too: PostgreSQL does not carry r.id > last across
        -- the join, and a merge join would read each table from its start for every batch
        -- (quadratic: 0.6 s a batch at a million records, 11 ms with the bound).
        LEFT JOIN "GenerationLookup" l ON l."recordId" = r.id AND l."recordId" > ${last}
        LEFT JOIN "ProvenanceJudgement" pj ON pj."recordId" = r.id AND pj."recordId" > ${last}
       WHERE r.id > ${last} ${filter}
       ORDER BY r.id
       LIMIT ${BATCH}`;
    if (batch.length === 0) break;
    // One judgement per time span (spanJudge), sent once per batch with the records that share it;
    // a record whose stored judgement (and view) is the same as this one's is not written again.
    const pairs: JudgementWrite[] = [];
    const turned = new Map<number, TurnedSuspect>();
    for (const r of batch) {
      const j = judgeOf({
        provider: r.provider,
        tag: r.tag,
        modelId: r.model_id,
        occurredAt: r.occurred_at,
        viewKey: r.view_id,
        lookup: r.lookup_state === null ? undefined : { state: r.lookup_state, attempts: r.lookup_attempts ?? 0, error: r.lookup_error },
      });
      byClass[j.class]++;
      datasets.add(r.dataset);
      if (r.detail === digestOf(j) && r.judged_view === r.view_id) continue;
      pairs.push({ recordId: r.id, judgement: j, viewId: r.view_id });
      // Trusted under its view, suspect under the same view now: the view's alert says it.
      if (r.judged_class === "trusted" && j.class === "suspect" && r.view_id !== null && r.judged_view === r.view_id) {
        const t = turned.get(r.view_id) ?? { samples: 0, inputTokens: new Decimal(0), outputTokens: new Decimal(0), costUsd: new Decimal(0) };
        turned.set(r.view_id, {
          samples: t.samples + 1,
          inputTokens: t.inputTokens.plus(r.input_tokens ?? 0),
          outputTokens: t.outputTokens.plus(r.output_tokens ?? 0),
          costUsd: t.costUsd.plus(r.cost_usd ?? 0),
        });
      }
    }
    judged += batch.length;
    last = batch[batch.length - 1].id;
    if (pairs.length > 0) {
      // The tally's triggers add a few rows a batch; folding them now and then keeps the page's read short.
      if (++writes % COMPACT_EVERY === 0) await compactProvenanceTally(db);
      if (turned.size === 0) written += await writeJudgements(db, pairs, computedAt, stored);
      else {
        // The turns are kept with the judgements that make them, or not at all.
        written += await db.$transaction(async (tx) => {
          const n = await writeJudgements(tx, pairs, computedAt, stored);
          await addTurnedSuspect(tx, turned, computedAt);
          return n;
        });
      }
    }
    await options.onProgress?.(judged, total);
  }
  await markComputed(db, datasets, computedAt);
  // This pass's turns, and any a pass that died left.
  await sayTurnedSuspect(db, computedAt);
  if (written > 0) await compactProvenanceTally(db);
  await refreshStatisticsIfGrown(db, "ProvenanceJudgement", written);
  return { judged, written, byClass, computedAt: computedAt.toISOString(), ms: Date.now() - started };
}

interface ViewSpan {
  view_id: number;
  slug: string;
  name: string;
  model_id: string;
  first: Date | null;
  last: Date | null;
  /** The records under the view (in the pass's scope). */
  records: number;
}

type Views = Map<number, { view: NonNullable<GenerationFacts["view"]>; timeline: Timeline | null }>;

/** Each view's timeline over the span of the records judged under it (and the grace before). */
async function loadViews(db: DbOrTx, spans: ReadonlyArray<Omit<ViewSpan, "records">>, graceMinutes: number): Promise<Views> {
  const views: Views = new Map();
  for (const s of spans) {
    const timeline =
      s.first && s.last
        ? buildTimeline(await loadTimelineInput(db, s.view_id, s.model_id, new Date(s.first.getTime() - graceMinutes * 60_000), s.last))
        : null;
    views.set(s.view_id, { view: { slug: s.slug, name: s.name, modelId: s.model_id }, timeline });
  }
  return views;
}

interface JudgementWrite {
  recordId: number;
  judgement: Judgement;
  viewId: number | null;
}

/**
 * Writes judgements (insert, or update of a stored one): each distinct judgement's details stored
 * once (ProvenanceDetail, keyed by digestOf; `stored` holds those this pass has written, which it
 * does not send again), and each record's row pointing at them. The records are locked (FOR SHARE)
 * first, so that a lookup that changes a record at the same time either commits first (its change
 * is seen by the tally's trigger here) or waits for this, and the tally never counts a record
 * twice; a record deleted meanwhile is skipped (and not counted as written). Returns the rows
 * written. (An import's new records are judged as they are inserted: lib/usage/import.ts.)
 */
async function writeJudgements(db: DbOrTx, writes: readonly JudgementWrite[], computedAt: Date, stored: Set<string>): Promise<number> {
  const distinct = new Map<Judgement, number>();
  const pairs = writes.map((w) => {
    let index = distinct.get(w.judgement);
    if (index === undefined) distinct.set(w.judgement, (index = distinct.size));
    return { r: w.recordId, j: index, v: w.viewId };
  });
  const judgements = [...distinct.keys()].map((j, i) => ({ i, c: j.class, d: digestOf(j) }));
  await storeDetails(db, distinct.keys(), stored);
  return db.$executeRaw`
    WITH p AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) AS p(r int, j int, v int)),
    locked AS (SELECT id FROM "UsageRecord" WHERE id IN (SELECT r FROM p) FOR SHARE),
    j AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(judgements)}::jsonb) AS j(i int, c text, d text))
    INSERT INTO "ProvenanceJudgement" ("recordId", "class", "viewId", "detail", "judgedAt")
    SELECT p.r, j.c, p.v, j.d, ${computedAt}
      FROM p JOIN j ON j.i = p.j JOIN locked ON locked.id = p.r
    ON CONFLICT ("recordId") DO UPDATE SET class = EXCLUDED.class, "viewId" = EXCLUDED."viewId", detail = EXCLUDED.detail, "judgedAt" = EXCLUDED."judgedAt"`;
}

/**
 * Stores the details of these judgements that `stored` (the ones this pass has written) does not
 * hold, in the caller's transaction: a detail is visible once the judgements that point at it are.
 */
async function storeDetails(db: DbOrTx, judgements: Iterable<Judgement>, stored: Set<string>): Promise<void> {
  const details = [...new Set(judgements)].filter((j) => !stored.has(digestOf(j))).map((j) => ({ d: digestOf(j), ...columns(j) }));
  if (details.length === 0) return;
  await db.$executeRaw`
    INSERT INTO "ProvenanceDetail" (digest, class, tag, ambiguous, reasons, "verdictBefore", "verdictAfter", included, status, quantization)
    SELECT x.d, x.class, x.tag, x.ambiguous, ARRAY(SELECT jsonb_array_elements_text(x.reasons)), x."verdictBefore", x."verdictAfter", x.included, x.status, x.quantization
      FROM jsonb_to_recordset(${JSON.stringify(details)}::jsonb) AS x(d text, class text, tag text, ambiguous boolean, reasons jsonb,
           "verdictBefore" text, "verdictAfter" text, included boolean, status int, quantization text)
    ON CONFLICT (digest) DO NOTHING`;
  for (const d of details) stored.add(d.d);
}

/** Every dataset a pass judged was computed then, whether or not a class changed. */
async function markComputed(db: DbOrTx, datasets: ReadonlySet<string>, computedAt: Date): Promise<void> {
  if (datasets.size === 0) return;
  await db.$executeRaw`
    INSERT INTO "ProvenanceComputed" (dataset, "computedAt")
    SELECT x, ${computedAt} FROM jsonb_array_elements_text(${JSON.stringify([...datasets])}::jsonb) AS x
    ON CONFLICT (dataset) DO UPDATE SET "computedAt" = GREATEST("ProvenanceComputed"."computedAt", EXCLUDED."computedAt")`;
}

/**
 * A digest of the facts that change judgements after the fact (finished probe runs, saved views'
 * revisions, known quantizations, the datasets' chosen views). An import judges its records with
 * the facts as its transaction began; a fact that lands before it commits re-judges only what it
 * can see, which leaves out the import's records. The import compares this before and after, and
 * judges its records again when it moved. (Polls are left out: a poll taken during an import is
 * later than the generations it holds, which the poll does not judge.)
 */
export async function factsStamp(db: DbOrTx): Promise<string> {
  const [row] = await db.$queryRaw<Array<{ stamp: string }>>`
    SELECT concat_ws('|',
      (SELECT count(*) || ':' || COALESCE(max(id), 0) || ':' || COALESCE(max("finishedAt")::text, '') FROM "ProbeRun" WHERE status = 'done'),
      (SELECT count(*) || ':' || COALESCE(max(id), 0) FROM "SavedViewRevision"),
      (SELECT COALESCE(md5(string_agg("modelId" || '/' || tag || '=' || quantization, ',' ORDER BY "modelId", tag)), '') FROM "KnownQuantization"),
      (SELECT COALESCE(md5(string_agg(dataset || '=' || "viewId", ',' ORDER BY dataset)), '') FROM "ProvenanceViewChoice")
    ) AS stamp`;
  return row.stamp;
}

/** A new record as its import is about to insert it (the import judges it first: judgeNewRecords). */
export interface NewRecord {
  provider: string | null;
  tag: string | null;
  modelId: string | null;
  occurredAt: Date | null;
  dataset: string | null;
  /** It kept only its generation id: it awaits its lookup (a new GenerationLookup row, pending). */
  awaitsLookup: boolean;
}

/** What the import stores of a new record's judgement, in the statement that inserts the record. */
export interface NewJudgement {
  class: Judgement["class"];
  /** ProvenanceDetail's key: the details are stored by the time this is returned. */
  detail: string;
  viewId: number | null;
}

/**
 * Judges the records an import is about to insert, in the import's own transaction, as a
 * re-judgement of the import would (the same view per record: the import's, else its dataset's
 * choice; the same timelines and digests), before they exist: a record's judgement needs none of
 * what the insert gives it (its id). `plan` is every record the file holds (a superset of those
 * inserted): the views' timelines cover their times. Returns a function that judges a batch (and
 * stores the details its judgements point at), and one to call once at the end with the datasets
 * of the records inserted, which says the facts' stamp the judgements were made with (factsStamp).
 */
export async function judgeNewRecords(
  db: DbOrTx,
  importViewId: number | null,
  plan: ReadonlyArray<{ occurredAt: Date | null; dataset: string | null }>,
  options: { graceMinutes?: number; now?: Date } = {},
): Promise<{
  /** The judgements' time (ProvenanceJudgement.judgedAt). */
  computedAt: Date;
  judge(records: readonly NewRecord[]): Promise<NewJudgement[]>;
  finish(datasets: ReadonlySet<string>): Promise<{ factsStamp: string }>;
}> {
  const graceMinutes = options.graceMinutes ?? env.PROVENANCE_GRACE_MINUTES;
  const computedAt = options.now ?? new Date();
  const stamp = await factsStamp(db);
  const choices = new Map<string, number>();
  if (importViewId === null) {
    for (const c of await db.provenanceViewChoice.findMany({ select: { dataset: true, viewId: true } })) choices.set(c.dataset, c.viewId);
  }
  const viewOf = (dataset: string | null): number | null => importViewId ?? choices.get(dataset ?? "") ?? null;
  // The span of times under each view, as the re-judgement's query computes it from the records.
  const span = new Map<number, { first: number | null; last: number | null }>();
  for (const r of plan) {
    const v = viewOf(r.dataset);
    if (v === null) continue;
    const s = span.get(v) ?? { first: null, last: null };
    const t = r.occurredAt?.getTime();
    if (t !== undefined) {
      if (s.first === null || t < s.first) s.first = t;
      if (s.last === null || t > s.last) s.last = t;
    }
    span.set(v, s);
  }
  const rows = await db.savedView.findMany({ where: { id: { in: [...span.keys()] } }, select: { id: true, slug: true, name: true, modelId: true } });
  const spans = rows.map((v): Omit<ViewSpan, "records"> => {
    const s = span.get(v.id);
    return {
      view_id: v.id,
      slug: v.slug,
      name: v.name,
      model_id: v.modelId,
      first: s?.first == null ? null : new Date(s.first),
      last: s?.last == null ? null : new Date(s.last),
    };
  });
  // The views' timelines are loaded with the first batch: a file of nothing valid loads none.
  let judgeOf: ReturnType<typeof spanJudge> | null = null;
  const known = new Set(rows.map((v) => v.id));
  const stored = new Set<string>();
  return {
    computedAt,
    async judge(records) {
      if (records.length === 0) return [];
      const judge = (judgeOf ??= spanJudge(await loadViews(db, spans, graceMinutes), graceMinutes));
      const judged = records.map((r) => {
        const chosen = viewOf(r.dataset);
        // A view deleted since it was chosen judges as none (the re-judgement's join finds no view).
        const viewId = chosen !== null && known.has(chosen) ? chosen : null;
        const judgement = judge({
          provider: r.provider,
          tag: r.tag,
          modelId: r.modelId,
          occurredAt: r.occurredAt,
          viewKey: viewId,
          lookup: r.awaitsLookup ? { state: "pending", attempts: 0, error: null } : undefined,
        });
        return { judgement, viewId };
      });
      await storeDetails(db, judged.map((j) => j.judgement), stored);
      return judged.map(({ judgement, viewId }) => ({ class: judgement.class, detail: digestOf(judgement), viewId }));
    },
    async finish(datasets) {
      await markComputed(db, datasets, computedAt);
      return { factsStamp: stamp };
    },
  };
}

/** A short hash of a judgement's details (computed once per judgement object): ProvenanceDetail's key. */
const digests = new WeakMap<Judgement, string>();
function digestOf(j: Judgement): string {
  let d = digests.get(j);
  if (d === undefined) {
    d = createHash("sha256").update(JSON.stringify(columns(j))).digest("base64url").slice(0, 22);
    digests.set(j, d);
  }
  return d;
}

function columns(j: Judgement) {
  return {
    class: j.class,
    tag: j.tag,
    ambiguous: j.ambiguous,
    reasons: j.reasons,
    verdictBefore: j.verdictBefore,
    verdictAfter: j.verdictAfter,
    included: j.included,
    status: j.status,
    quantization: j.quantization,
  };
}
