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
import { buildTimeline, lastAtOrBefore, spanJudge, timelineBreaks, type Timeline } from "./timeline";

// Judges imported generations and stores each one's class (ProvenanceJudgement, one narrow row per
// usage record, written when its judgement changes, pointing at the judgement's details, stored
// once in ProvenanceDetail; ProvenanceComputed says when each dataset was last computed). Records
// are judged in id-ordered batches, so memory stays bounded however many there are; each view's
// timeline is built once per pass from the facts over the span its records cover. The records do
// not travel: PostgreSQL groups a batch's records by what their judgement depends on (the time span
// between two of the view's facts among it, found by width_bucket), each group is judged once here
// (spanJudge), and only the groups whose judgement changed are written back, by one statement that
// finds their records again. An import judges its new records
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

const BATCH = 50_000;
const COMPACT_EVERY = 10;

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
  const perView = await db.$queryRaw<Array<ViewSpan | (Omit<ViewSpan, "view_id"> & { view_id: null })>>`
    SELECT v.id AS view_id, v.slug, v.name, v."modelId" AS model_id, min(r."occurredAt") AS first, max(r."occurredAt") AS last, count(*)::int AS records
      ${FROM}
      LEFT JOIN "SavedView" v ON v.id = ${VIEW_OF}
     WHERE true ${filter}
     GROUP BY v.id, v.slug, v.name, v."modelId"`;
  const spans = perView.filter((g): g is ViewSpan => g.view_id !== null);
  const total = perView.reduce((n, g) => n + g.records, 0);

  const byClass: Record<string, number> = { trusted: 0, unverified: 0, suspect: 0, excluded: 0, awaiting: 0 };
  const views = await loadViews(db, spans, graceMinutes);
  const judgeOf = spanJudge(views, graceMinutes);
  // The moments each view's judgements can change at (timelineBreaks): PostgreSQL finds the time
  // span each record falls in from them (recordsOf).
  const breaks = new Map([...views].flatMap(([id, v]) => (v.timeline ? [[id, timelineBreaks(v.timeline, graceMinutes)] as const] : [])));
  let judged = 0;
  let written = 0;
  let writes = 0;
  const datasets = new Set<string>();
  let last = 0;
  const stored = new Set<string>();
  for (;;) {
    // The next batch: the records of the scope after the last, up to BATCH of them, by id, and the
    // times they span.
    const [{ hi, first, latest }] = await db.$queryRaw<Array<{ hi: number | null; first: Date | null; latest: Date | null }>>`
      SELECT max(id) AS hi, min(at) AS first, max(at) AS latest
        FROM (SELECT r.id, r."occurredAt" AS at ${FROM} WHERE r.id > ${last} ${filter} ORDER BY r.id LIMIT ${BATCH}) s`;
    if (hi === null) break;
    const range: BatchRange = { breaks: breaksWithin(breaks, first, latest), last, hi, filter, first, latest };
    // The batch's records grouped by everything their judgement depends on (spanJudge's key: view,
    // provider, tag, model, time span, lookup) and by what is stored of it: a group is judged once,
    // and a pass that changes nothing reads a few rows a batch, not every record.
    const groups = await db.$queryRaw<RecordGroup[]>`
      SELECT view_id, provider, tag, model_id, untimed, span, dataset, lookup_state, lookup_attempts, lookup_error, detail, judged_view, judged_class,
             min(occurred_at) AS occurred_at, count(*)::int AS records,
             sum(input_tokens)::text AS input_tokens, sum(output_tokens)::text AS output_tokens, sum(cost_usd)::text AS cost_usd
        FROM (${recordsOf(range)}) x
       GROUP BY view_id, provider, tag, model_id, untimed, span, dataset, lookup_state, lookup_attempts, lookup_error, detail, judged_view, judged_class`;
    const changes = new Map<string, GroupWrite>();
    const turned = new Map<number, TurnedSuspect>();
    for (const g of groups) {
      // Any record of the group judges the same (its span's): the group's first stands for all.
      const j = judgeOf({
        provider: g.provider,
        tag: g.tag,
        modelId: g.model_id,
        occurredAt: g.occurred_at,
        viewKey: g.view_id,
        lookup: g.lookup_state === null ? undefined : { state: g.lookup_state, attempts: g.lookup_attempts ?? 0, error: g.lookup_error },
      });
      byClass[j.class] += g.records;
      datasets.add(g.dataset);
      // A record whose stored judgement (and view) is the same as this one's is not written again.
      if (g.detail === digestOf(j) && g.judged_view === g.view_id) continue;
      // Written by what the judgement depends on: the records of every stored variant at once.
      const inputs = Object.fromEntries(INPUT_COLUMNS.map(([c]) => [c, g[c]])) as unknown as JudgementInputs;
      changes.set(JSON.stringify(inputs), { inputs, judgement: j });
      // Trusted under its view, suspect under the same view now: the view's alert says it.
      if (g.judged_class === "trusted" && j.class === "suspect" && g.view_id !== null && g.judged_view === g.view_id) {
        const t = turned.get(g.view_id) ?? { samples: 0, inputTokens: new Decimal(0), outputTokens: new Decimal(0), costUsd: new Decimal(0) };
        turned.set(g.view_id, {
          samples: t.samples + g.records,
          inputTokens: t.inputTokens.plus(g.input_tokens ?? 0),
          outputTokens: t.outputTokens.plus(g.output_tokens ?? 0),
          costUsd: t.costUsd.plus(g.cost_usd ?? 0),
        });
      }
    }
    judged += groups.reduce((n, g) => n + g.records, 0);
    last = hi;
    if (changes.size > 0) {
      // The tally's triggers add a few rows a batch; folding them now and then keeps the page's read short.
      if (++writes % COMPACT_EVERY === 0) await compactProvenanceTally(db);
      if (turned.size === 0) written += await writeJudgements(db, range, [...changes.values()], computedAt, stored);
      else {
        // The turns are kept with the judgements that make them, or not at all.
        written += await db.$transaction(async (tx) => {
          const n = await writeJudgements(tx, range, [...changes.values()], computedAt, stored);
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

/** What a record's judgement depends on (spanJudge's key), as recordsOf's columns name it. */
interface JudgementInputs {
  view_id: number | null;
  provider: string | null;
  tag: string | null;
  model_id: string | null;
  untimed: boolean;
  /** The time span (width_bucket over the view's breaks); null for a view without breaks or a record without a time. */
  span: number | null;
  lookup_state: string | null;
  lookup_attempts: number | null;
  lookup_error: string | null;
}

/** The records of a batch that share what their judgement depends on and what is stored of it. */
interface RecordGroup extends JudgementInputs {
  dataset: string;
  detail: string | null;
  judged_view: number | null;
  judged_class: string | null;
  /** The earliest time of the group's records (all in one time span). */
  occurred_at: Date | null;
  records: number;
  input_tokens: string | null;
  output_tokens: string | null;
  cost_usd: string | null;
}

/**
 * Each view's breaks that tell apart the time spans of a batch whose times run from `first` to
 * `latest` (the last at or before `first`, and every one after it up to `latest`), as a PostgreSQL
 * table of (view, sorted array). When a batch's records span days of a history of months (imports
 * come in time order), its slice is a small part of the view's breaks (90 days of five-minute polls
 * make about 52,000; parsing them as one array took 45 ms a statement), so the array sent with each
 * statement stays small. Numbered within the slice, the spans of one batch still tell apart exactly
 * the records spanJudge tells apart; numbers from two batches are never compared.
 */
function breaksWithin(breaks: ReadonlyMap<number, readonly number[]>, first: Date | null, latest: Date | null): Prisma.Sql {
  const rows: Prisma.Sql[] = [];
  if (first && latest) {
    for (const [id, list] of breaks) {
      // From the last break at or before the batch's first time (the first break when none is).
      const from = Math.max(0, lastAtOrBefore(list, first.getTime(), (b) => b));
      const slice: number[] = [];
      for (let i = from; i < list.length && list[i] <= latest.getTime(); i++) slice.push(list[i]);
      // A view with no break in the slice has one span in the batch: its records group alike without one.
      if (slice.length > 0) rows.push(Prisma.sql`(${id}::int, ${`{${slice.map((t) => new Date(t).toISOString()).join(",")}}`}::timestamptz[])`);
    }
  }
  return rows.length > 0
    ? Prisma.sql`(VALUES ${Prisma.join(rows)}) AS b(view_id, breaks)`
    : Prisma.sql`(SELECT NULL::int AS view_id, NULL::timestamptz[] AS breaks WHERE false) b`;
}

/** A batch: the records of the scope after `last` up to `hi`, their times from `first` to `latest`, and the breaks between. */
interface BatchRange {
  breaks: Prisma.Sql;
  last: number;
  hi: number;
  filter: Prisma.Sql;
  first: Date | null;
  latest: Date | null;
}

/**
 * A batch's records (ids after `last`, up to `hi`, in the scope), each with its view, its time
 * span (width_bucket: the number of its view's breaks at or before its time, which is spanJudge's
 * span plus one), its lookup and its stored judgement.
 */
function recordsOf({ breaks, last, hi, filter, first, latest }: BatchRange, forWrite = false): Prisma.Sql {
  // Only the times the breaks were sliced for: a record of the batch's ids that an import committed
  // after the batch was bounded (its transaction took the id earlier) may lie outside them; it was
  // judged by its import, which judges it again if a fact moved meanwhile (factsStamp), as a record
  // behind `last` that commits late is.
  const times = first && latest ? Prisma.sql`AND (r."occurredAt" IS NULL OR r."occurredAt" BETWEEN ${first} AND ${latest})` : Prisma.sql`AND r."occurredAt" IS NULL`;
  // A write needs only what matches a record to its inputs and says whether its stored judgement stands.
  const rest = forWrite
    ? Prisma.empty
    : Prisma.sql`, COALESCE(r.dataset, '') AS dataset, pj.class AS judged_class,
           r."occurredAt" AS occurred_at, r."inputTokens" AS input_tokens, r."outputTokens" AS output_tokens, r."costUsd" AS cost_usd`;
  return Prisma.sql`
    SELECT r.id, ${VIEW_OF} AS view_id, r.provider, r.tag, r."modelId" AS model_id, r."occurredAt" IS NULL AS untimed,
           width_bucket(r."occurredAt", b.breaks) AS span,
           l.state AS lookup_state, l.attempts AS lookup_attempts, l."lastError" AS lookup_error,
           pj.detail, pj."viewId" AS judged_view ${rest}
      ${FROM}
      -- The bound on each joined table's key too: PostgreSQL does not carry the bounds on r.id across
      -- the join, and a merge join would read each table from its start for every batch.
      LEFT JOIN "GenerationLookup" l ON l."recordId" = r.id AND l."recordId" > ${last} AND l."recordId" <= ${hi}
      LEFT JOIN "ProvenanceJudgement" pj ON pj."recordId" = r.id AND pj."recordId" > ${last} AND pj."recordId" <= ${hi}
      LEFT JOIN ${breaks} ON b.view_id = ${VIEW_OF}
     WHERE r.id > ${last} AND r.id <= ${hi} ${times} ${filter}`;
}

/**
 * The columns of JudgementInputs, null-safe and hashable, so a batch's records join the changed
 * inputs by a hash join (IS NOT DISTINCT FROM cannot be hashed): each nullable column with a
 * stand-in for null, and a mask of which were null (so a null and a real value equal to its
 * stand-in never match: their masks differ).
 */
const INPUT_COLUMNS: Array<[keyof JudgementInputs, "int" | "text" | "boolean"]> = [
  ["view_id", "int"],
  ["provider", "text"],
  ["tag", "text"],
  ["model_id", "text"],
  ["untimed", "boolean"],
  ["span", "int"],
  ["lookup_state", "text"],
  ["lookup_attempts", "int"],
  ["lookup_error", "text"],
];
function inputsMatch(a: string, b: string): Prisma.Sql {
  const nulls = (t: string) => INPUT_COLUMNS.map(([c], i) => `((${t}.${c} IS NULL)::int << ${i})`).join(" | ");
  const stand = (type: string) => (type === "text" ? "''" : type === "int" ? "0" : "false");
  return Prisma.raw(
    [`(${nulls(a)}) = (${nulls(b)})`, ...INPUT_COLUMNS.map(([c, type]) => `COALESCE(${a}.${c}, ${stand(type)}) = COALESCE(${b}.${c}, ${stand(type)})`)].join(" AND "),
  );
}
const INPUTS_RECORD = Prisma.raw(INPUT_COLUMNS.map(([c, type]) => `${c} ${type}`).join(", "));

interface GroupWrite {
  inputs: JudgementInputs;
  judgement: Judgement;
}

/**
 * Writes a batch's changed judgements (insert, or update of a stored one): each distinct
 * judgement's details stored once (ProvenanceDetail, keyed by digestOf; `stored` holds those this
 * pass has written, which it does not send again), and the row of each record of each changed group
 * pointing at them; the records are found again by what their judgement depends on, so one that
 * a lookup changed since the groups were read gets the judgement of what it is now, or none when no
 * changed group is like it (the lookup asks for its own pass). The records
 * are locked (FOR SHARE) first, so that a lookup that changes a record at the same time either
 * commits first (its change is seen by the tally's trigger here) or waits for this, and the tally
 * never counts a record twice; a record deleted meanwhile is skipped (and not counted as written).
 * Returns the rows written. (An import's new records are judged as they are inserted:
 * lib/usage/import.ts.)
 */
async function writeJudgements(
  db: DbOrTx,
  range: BatchRange,
  changes: readonly GroupWrite[],
  computedAt: Date,
  stored: Set<string>,
): Promise<number> {
  await storeDetails(db, changes.map((c) => c.judgement), stored);
  const groups = changes.map((c) => ({ ...c.inputs, c: c.judgement.class, d: digestOf(c.judgement) }));
  return db.$executeRaw`
    WITH g AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(groups)}::jsonb) AS g(${INPUTS_RECORD}, c text, d text)),
    -- The batch's records first, planned on their own (as the groups were read), then matched.
    x AS MATERIALIZED (${recordsOf(range, true)}),
    sel AS (
      SELECT x.id, g.c, g.d, x.view_id AS v
        FROM x JOIN g ON ${inputsMatch("g", "x")}
       -- Not written again: a record whose stored judgement (and view) is this one.
       WHERE x.detail IS DISTINCT FROM g.d OR x.judged_view IS DISTINCT FROM x.view_id),
    -- Bounded by the batch's ids too, so the records are read by their key however many the planner expects.
    locked AS (
      SELECT sel.* FROM "UsageRecord" u JOIN sel ON sel.id = u.id
       WHERE u.id > ${range.last} AND u.id <= ${range.hi}
         FOR SHARE OF u)
    INSERT INTO "ProvenanceJudgement" ("recordId", "class", "viewId", "detail", "judgedAt")
    SELECT id, c, v, d, ${computedAt} FROM locked
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
