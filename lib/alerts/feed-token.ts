import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db/engines";
import { SLUG } from "../saved-views";

// A saved view's private feed link: /v/{slug}/feed.xml?token=rbf_… opens that view's feed without
// the Basic-auth credentials (a feed reader cannot send them), and nothing else. The token is
// 32 random bytes; only its SHA-256 is stored (a token this long needs no slow hash), so the link
// is shown once, when made. Making a new link replaces the old one; revoking deletes it, and the
// old link then answers 401 (BASIC_AUTH on) or 404.

export const FEED_TOKEN_PARAM = "token";
const TOKEN = /^rbf_[A-Za-z0-9_-]{43}$/;

const hashOf = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

export interface FeedLinkState {
  /** When the current private link was made; null when the view has none. */
  createdAt: string | null;
}

/** Whether the view has a private feed link; null when there is no such view. */
export async function feedLinkState(db: Db, slug: string): Promise<FeedLinkState | null> {
  if (!SLUG.test(slug)) return null;
  const view = await db.savedView.findUnique({ where: { slug }, select: { feedToken: { select: { createdAt: true } } } });
  if (!view) return null;
  return { createdAt: view.feedToken?.createdAt.toISOString() ?? null };
}

/** A new private link's token for the view (the old one stops working); null when there is no such view. */
export async function makeFeedToken(db: Db, slug: string): Promise<{ token: string; createdAt: string } | null> {
  if (!SLUG.test(slug)) return null;
  const view = await db.savedView.findUnique({ where: { slug }, select: { id: true } });
  if (!view) return null;
  const token = `rbf_${randomBytes(32).toString("base64url")}`;
  const tokenHash = hashOf(token);
  const row = await db.viewFeedToken.upsert({
    where: { viewId: view.id },
    create: { viewId: view.id, tokenHash },
    update: { tokenHash, createdAt: new Date() },
  });
  return { token, createdAt: row.createdAt.toISOString() };
}

/** Revokes the view's private link; false when there is no such view. */
export async function revokeFeedToken(db: Db, slug: string): Promise<boolean> {
  if (!SLUG.test(slug)) return false;
  const view = await db.savedView.findUnique({ where: { slug }, select: { id: true } });
  if (!view) return false;
  await db.viewFeedToken.deleteMany({ where: { viewId: view.id } });
  return true;
}

/** Whether `token` is the current private link of the view `slug`. */
export async function feedTokenOpens(db: Db, slug: string, token: string | null | undefined): Promise<boolean> {
  if (!token || !TOKEN.test(token) || !SLUG.test(slug)) return false;
  const row = await db.viewFeedToken.findUnique({ where: { tokenHash: hashOf(token) }, select: { view: { select: { slug: true } } } });
  return row?.view.slug === slug;
}

/** The feed path a private link points at ("/v/{slug}/feed.xml"), or null for any other path. */
export function feedPathSlug(pathname: string): string | null {
  const match = /^\/v\/([a-z0-9]{6,16})\/feed\.xml$/.exec(pathname);
  return match ? match[1] : null;
}
