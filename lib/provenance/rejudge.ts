import "server-only";
import { createHash } from "node:crypto";
import { Prisma } from "../db/generated/client";
import type { Db } from "../db/engines";
import { refreshStatisticsIfGrown } from "../db/statistics";
import { env } from "../env";
import type { GenerationFacts, Judgement } from "./judge";
import { loadTimelineInput } from "./load";
import { compactProvenanceTally } from "./tally";
import { buildTimeline, spanJudge, type Timeline } from "./timeline";

// Judges imported generations and stores each one's class (ProvenanceJudgement, one row per usage
// record, written when its judgement changes; ProvenanceComputed says when each dataset was last
// computed). Records are read and written in
// id-ordered batches, so memory stays bounded however many there are; each view's timeline is
// built once per pass from the facts over the span its records cover, and each time span between
// two of its facts is judged once (spanJudge).

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

export async function rejudge(db: Db, scope: RejudgeScope = {}, options: { graceMinutes?: number; now?: Date } = {}): Promise<RejudgeResult> {
  const started = Date.now();
  const graceMinutes = options.graceMinutes ?? env.PROVENANCE_GRACE_MINUTES;
  const computedAt = options.now ?? new Date();
  const filter = where(scope);

  // One timeline per view in use, over the span of its records (and the grace before).
  const spans = await db.$queryRaw<Array<{ view_id: number; slug: string; name: string; model_id: string; first: Date | null; last: Date | null }>>`
    SELECT v.id AS view_id, v.slug, v.name, v."modelId" AS model_id, min(r."occurredAt") AS first, max(r."occurredAt") AS last
      ${FROM}
      JOIN "SavedView" v ON v.id = ${VIEW_OF}
     WHERE true ${filter}
     GROUP BY v.id, v.slug, v.name, v."modelId"`;
  const views = new Map<number, { view: NonNullable<GenerationFacts["view"]>; timeline: Timeline | null }>();
  for (const s of spans) {
    const timeline =
      s.first && s.last
        ? buildTimeline(await loadTimelineInput(db, s.view_id, s.model_id, new Date(s.first.getTime() - graceMinutes * 60_000), s.last))
        : null;
    views.set(s.view_id, { view: { slug: s.slug, name: s.name, modelId: s.model_id }, timeline });
  }

  const byClass: Record<string, number> = { trusted: 0, unverified: 0, suspect: 0, excluded: 0, awaiting: 0 };
  const judgeOf = spanJudge(views, graceMinutes);
  let judged = 0;
  let written = 0;
  let writes = 0;
  const datasets = new Set<string>();
  let last = 0;
  for (;;) {
    const batch = await db.$queryRaw<
      Array<{ id: number; provider: string | null; tag: string | null; model_id: string | null; occurred_at: Date | null; dataset: string; view_id: number | null; lookup_state: string | null; lookup_attempts: number | null; lookup_error: string | null; digest: string | null }>
    >`
      SELECT r.id, r.provider, r.tag, r."modelId" AS model_id, r."occurredAt" AS occurred_at, COALESCE(r.dataset, '') AS dataset, ${VIEW_OF} AS view_id,
             l.state AS lookup_state, l.attempts AS lookup_attempts, l."lastError" AS lookup_error, pj.digest
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
    const distinct = new Map<Judgement, number>();
    const pairs: Array<{ r: number; j: number; v: number | null; d: string }> = [];
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
      const d = `${digestOf(j)}:${r.view_id ?? ""}`;
      if (d === r.digest) continue;
      let index = distinct.get(j);
      if (index === undefined) distinct.set(j, (index = distinct.size));
      pairs.push({ r: r.id, j: index, v: r.view_id, d });
    }
    judged += batch.length;
    last = batch[batch.length - 1].id;
    if (pairs.length === 0) continue;
    // The tally's triggers add a few rows a batch; folding them now and then keeps the page's read short.
    if (++writes % COMPACT_EVERY === 0) await compactProvenanceTally(db);
    const judgements = [...distinct.keys()].map((j, i) => ({ i, ...columns(j) }));
    // The records are locked (FOR SHARE) before their judgements are written: a lookup that
    // changes a record at the same time then either commits first (its change is seen by the
    // tally's trigger here) or waits for this; the tally never counts a record twice. A record
    // deleted meanwhile is skipped (and not counted as written).
    written += await db.$executeRaw`
      WITH p AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) AS p(r int, j int, v int, d text)),
      locked AS (SELECT id FROM "UsageRecord" WHERE id IN (SELECT r FROM p) FOR SHARE),
      j AS (
        SELECT x.i, x.class, x.tag, x.ambiguous, ARRAY(SELECT jsonb_array_elements_text(x.reasons)) AS reasons,
               x."verdictBefore", x."verdictAfter", x.included, x.status, x.quantization
          FROM jsonb_to_recordset(${JSON.stringify(judgements)}::jsonb) AS x(i int, class text, tag text, ambiguous boolean, reasons jsonb,
               "verdictBefore" text, "verdictAfter" text, included boolean, status int, quantization text))
      INSERT INTO "ProvenanceJudgement" ("recordId", "class", "tag", "ambiguous", "reasons", "viewId", "verdictBefore", "verdictAfter", "included", "status", "quantization", "judgedAt", "digest")
      SELECT p.r, j.class, j.tag, j.ambiguous, j.reasons, p.v, j."verdictBefore", j."verdictAfter", j.included, j.status, j.quantization, ${computedAt}, p.d
        FROM p JOIN j ON j.i = p.j JOIN locked ON locked.id = p.r
      ON CONFLICT ("recordId") DO UPDATE SET class = EXCLUDED.class, tag = EXCLUDED.tag, ambiguous = EXCLUDED.ambiguous,
             reasons = EXCLUDED.reasons, "viewId" = EXCLUDED."viewId", "verdictBefore" = EXCLUDED."verdictBefore",
             "verdictAfter" = EXCLUDED."verdictAfter", included = EXCLUDED.included, status = EXCLUDED.status,
             quantization = EXCLUDED.quantization, "judgedAt" = EXCLUDED."judgedAt", digest = EXCLUDED.digest`;
  }
  // Every dataset this pass judged was computed now, whether or not a class changed.
  if (datasets.size > 0) {
    await db.$executeRaw`
      INSERT INTO "ProvenanceComputed" (dataset, "computedAt")
      SELECT x, ${computedAt} FROM jsonb_array_elements_text(${JSON.stringify([...datasets])}::jsonb) AS x
      ON CONFLICT (dataset) DO UPDATE SET "computedAt" = GREATEST("ProvenanceComputed"."computedAt", EXCLUDED."computedAt")`;
  }
  if (written > 0) await compactProvenanceTally(db);
  await refreshStatisticsIfGrown(db, "ProvenanceJudgement", written);
  return { judged, written, byClass, computedAt: computedAt.toISOString(), ms: Date.now() - started };
}

/** A short hash of a judgement's stored columns (computed once per judgement object). */
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
