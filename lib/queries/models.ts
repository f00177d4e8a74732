import "server-only";
import type { Db, DbOrTx } from "../db/engines";

export interface WatchedModelSummary {
  id: string;
  name: string | null;
  lastPoll: { at: string; ok: boolean; errorKind: string | null; error: string | null; attempts: number } | null;
  lastSuccessAt: string | null;
  endpointCount: number | null;
  demo: boolean;
}

interface Row {
  id: string;
  name: string | null;
  last_at: Date | null;
  last_ok: boolean | null;
  last_error_kind: string | null;
  last_error: string | null;
  last_attempts: number | null;
  success_at: Date | null;
  endpoint_count: number | null;
  demo: boolean | null;
}

/** Active watched models with their latest poll and latest successful poll, in one query. */
export async function listWatchedModels(db: Db): Promise<WatchedModelSummary[]> {
  const rows = await db.$queryRaw<Row[]>`
    SELECT m.id, m.name,
           last."finishedAt" AS last_at, last.ok AS last_ok, last."errorKind" AS last_error_kind,
           last.error AS last_error, last.attempts AS last_attempts,
           good."observedAt" AS success_at, good."endpointCount" AS endpoint_count, good.demo
      FROM "WatchedModel" m
      LEFT JOIN LATERAL (
        SELECT * FROM "ModelPoll" p
         WHERE p."modelId" = m.id AND p."errorKind" IS DISTINCT FROM 'skipped'
         ORDER BY p."startedAt" DESC LIMIT 1) last ON true
      LEFT JOIN LATERAL (
        SELECT * FROM "ModelPoll" p
         WHERE p."modelId" = m.id AND p.ok
         ORDER BY p."startedAt" DESC LIMIT 1) good ON true
     WHERE m.active
     ORDER BY m.id`;
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    lastPoll: r.last_at
      ? {
          at: r.last_at.toISOString(),
          ok: Boolean(r.last_ok),
          errorKind: r.last_error_kind,
          error: r.last_error,
          attempts: r.last_attempts ?? 0,
        }
      : null,
    lastSuccessAt: r.success_at?.toISOString() ?? null,
    endpointCount: r.endpoint_count,
    demo: Boolean(r.demo),
  }));
}

export async function findWatchedModel(db: DbOrTx, id: string) {
  return db.watchedModel.findFirst({ where: { id, active: true }, select: { id: true, name: true } });
}
