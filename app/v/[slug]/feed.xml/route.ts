import { viewFeed } from "@/lib/alerts/feed";
import { FEED_TOKEN_PARAM, feedTokenOpens } from "@/lib/alerts/feed-token";
import { getDb } from "@/lib/database";
import { guarded, jsonError, requestOrigin } from "@/lib/http";

export const dynamic = "force-dynamic";

/**
 * The saved view's alerts as an Atom feed. With `?token=` (the view's private feed link, which
 * proxy.ts lets through without Basic auth when it is valid) the token must be the view's current
 * one: a revoked or unknown link answers 404, also to someone signed in, so revoking is visible.
 */
export const GET = guarded(async (request: Request, context: { params: Promise<{ slug: string }> }) => {
  const { slug } = await context.params;
  const db = await getDb();
  const url = new URL(request.url);
  const token = url.searchParams.get(FEED_TOKEN_PARAM);
  if (token !== null && !(await feedTokenOpens(db, slug, token))) {
    return jsonError(404, "This private feed link has been revoked or replaced (or was never valid)");
  }
  const origin = requestOrigin(request);
  const self = token === null ? undefined : `${origin}/v/${slug}/feed.xml?${FEED_TOKEN_PARAM}=${encodeURIComponent(token)}`;
  const xml = await viewFeed(db, slug, { origin, self });
  if (xml === null) return jsonError(404, `There is no saved view "${slug}" (it may have been deleted)`);
  return new Response(xml, { headers: { "content-type": "application/atom+xml; charset=utf-8", "cache-control": "no-store" } });
});
