import { viewFeed } from "@/lib/alerts/feed";
import { getDb } from "@/lib/db/client";
import { guarded, jsonError } from "@/lib/http";

export const dynamic = "force-dynamic";

/** The saved view's alerts as an Atom feed. */
export const GET = guarded(async (request: Request, context: { params: Promise<{ slug: string }> }) => {
  const { slug } = await context.params;
  const xml = await viewFeed(await getDb(), slug, new URL(request.url).origin);
  if (xml === null) return jsonError(404, `There is no saved view "${slug}" (it may have been deleted)`);
  return new Response(xml, { headers: { "content-type": "application/atom+xml; charset=utf-8", "cache-control": "no-store" } });
});
