import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "./db/engines";
import { ANONYMOUS } from "./saved-view-author";
import { parseBasicAuthSetting } from "./security/basic-auth";

// Saved views: the comparison page's query string under a name and a short slug (/v/{slug}),
// so the data pipeline can fetch the current allow-list from the same view every time it starts.

export const viewInput = z.object({
  name: z.string().trim().min(1, "give the view a name").max(80),
  modelId: z.string().min(3).max(200),
  query: z.string().max(4000).transform((q) => q.replace(/^\?/, "")),
});
export const viewUpdate = viewInput.pick({ name: true, query: true }).partial();

export interface SavedViewEntry {
  slug: string;
  name: string;
  modelId: string;
  query: string;
  /** Who saved it (see savedBy); null for views saved before the app recorded it. */
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

type SavedViewRecord = { slug: string; name: string; modelId: string; query: string; createdBy: string | null; createdAt: Date; updatedAt: Date };

const toEntry = (v: SavedViewRecord): SavedViewEntry => ({
  slug: v.slug,
  name: v.name,
  modelId: v.modelId,
  query: v.query,
  createdBy: v.createdBy,
  createdAt: v.createdAt.toISOString(),
  updatedAt: v.updatedAt.toISOString(),
});

/**
 * Who is saving, as far as the server knows. With BASIC_AUTH on, every request has passed the
 * proxy with the one shared account, so that user name is the author; without it nobody signed
 * in, and the record says so rather than guess.
 */
export function savedBy(basicAuthSetting: string | undefined): string {
  return basicAuthSetting ? parseBasicAuthSetting(basicAuthSetting).user : ANONYMOUS;
}

export const SLUG = /^[a-z0-9]{6,16}$/;

function newSlug(): string {
  return randomBytes(6).toString("base64url").toLowerCase().replace(/[^a-z0-9]/g, "").padEnd(8, "0").slice(0, 8);
}

export async function createView(db: Db, raw: z.input<typeof viewInput>, createdBy: string | null = null): Promise<SavedViewEntry> {
  const input = viewInput.parse(raw);
  for (let i = 0; i < 5; i++) {
    const slug = newSlug();
    if (await db.savedView.findUnique({ where: { slug } })) continue;
    // The first revision of its rules, so provenance can judge generations made under it.
    const created = await db.savedView.create({ data: { slug, ...input, createdBy } });
    await db.savedViewRevision.create({ data: { viewId: created.id, query: created.query, validFrom: created.createdAt } });
    return toEntry(created);
  }
  throw new Error("Could not find a free short link");
}

export async function getView(db: Db, slug: string): Promise<SavedViewEntry | null> {
  if (!SLUG.test(slug)) return null;
  const view = await db.savedView.findUnique({ where: { slug } });
  return view ? toEntry(view) : null;
}

export async function listViews(db: Db, modelId: string): Promise<SavedViewEntry[]> {
  const views = await db.savedView.findMany({ where: { modelId }, orderBy: { updatedAt: "desc" } });
  return views.map(toEntry);
}

export async function updateView(db: Db, slug: string, raw: z.input<typeof viewUpdate>): Promise<SavedViewEntry | null> {
  if (!SLUG.test(slug)) return null;
  const update = viewUpdate.parse(raw);
  const before = await db.savedView.findUnique({ where: { slug } });
  if (!before) return null;
  const { count } = await db.savedView.updateMany({ where: { slug }, data: update });
  if (count && update.query !== undefined && update.query !== before.query) {
    // A new revision from now: generations made before it keep being judged by the old rules.
    await db.savedViewRevision.create({ data: { viewId: before.id, query: update.query, validFrom: new Date() } });
  }
  return count ? getView(db, slug) : null;
}

export async function deleteView(db: Db, slug: string): Promise<boolean> {
  if (!SLUG.test(slug)) return false;
  const { count } = await db.savedView.deleteMany({ where: { slug } });
  return count > 0;
}
