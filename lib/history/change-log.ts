import "server-only";
import type { Db } from "../db/engines";
import { findWatchedModel } from "../queries/models";
import type { ChangeKind } from "./changes";

// The stored change log of a model, newest first, a page at a time.

export const CHANGE_PAGE_MAX = 200;
export const CHANGE_PAGE_DEFAULT = 50;

export interface ChangeEntry {
  id: number;
  observedAt: string;
  kind: ChangeKind;
  tag: string;
  provider: string;
  before: string | null;
  after: string | null;
}

export interface ChangePage {
  changes: ChangeEntry[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: number | null;
  /** Every provider that has a change, for the filter. */
  providers: string[];
}

export interface ChangeQuery {
  kind?: ChangeKind;
  provider?: string;
  limit?: number;
  /** Only changes with an id below this (the cursor of the previous page). */
  before?: number;
}

export async function listChanges(db: Db, modelId: string, query: ChangeQuery = {}): Promise<ChangePage | null> {
  const model = await findWatchedModel(db, modelId);
  if (!model) return null;
  const limit = Math.min(CHANGE_PAGE_MAX, Math.max(1, query.limit ?? CHANGE_PAGE_DEFAULT));
  const [rows, providers] = await Promise.all([
    db.changeEvent.findMany({
      where: {
        modelId,
        ...(query.kind ? { kind: query.kind } : {}),
        ...(query.provider ? { provider: query.provider } : {}),
        ...(query.before ? { id: { lt: query.before } } : {}),
      },
      orderBy: [{ observedAt: "desc" }, { id: "desc" }],
      take: limit + 1,
    }),
    db.changeEvent.findMany({ where: { modelId }, distinct: ["provider"], select: { provider: true }, orderBy: { provider: "asc" } }),
  ]);
  const page = rows.slice(0, limit);
  return {
    changes: page.map((r) => ({
      id: r.id,
      observedAt: r.observedAt.toISOString(),
      kind: r.kind as ChangeKind,
      tag: r.tag,
      provider: r.provider,
      before: r.before,
      after: r.after,
    })),
    nextBefore: rows.length > limit ? page[page.length - 1].id : null,
    providers: providers.map((p) => p.provider),
  };
}
