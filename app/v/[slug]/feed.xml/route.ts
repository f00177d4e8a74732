import { viewFeed } from "@/lib/alerts/feed";
import { getDb } from "@/lib/db/client";
import { guarded, jsonError } from "@/lib/http";

export const dynamic = "force-dynamic";

/** The address readers reach the site at: the Host (or a proxy's X-Forwarded-Host) they asked. */
function siteOrigin(request: Request): string {
  const url = new URL(request.url);
  const host = (request.headers.get("x-forwarded-host") ?? request.headers.get("host"))?.split(",")[0].trim();
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0].trim() ?? url.protocol.replace(":", "");
  return host && /^[a-z0-9.\-\[\]:]+$/i.test(host) && (proto === "http" || proto === "https") ? `${proto}://${host}` : url.origin;
}

/** The saved view's alerts as an Atom feed. */
export const GET = guarded(async (request: Request, context: { params: Promise<{ slug: string }> }) => {
  const { slug } = await context.params;
  const xml = await viewFeed(await getDb(), slug, siteOrigin(request));
  if (xml === null) return jsonError(404, `There is no saved view "${slug}" (it may have been deleted)`);
  return new Response(xml, { headers: { "content-type": "application/atom+xml; charset=utf-8", "cache-control": "no-store" } });
});
