import { Feed } from "feed";
import type { Db } from "../db/engines";
import { getView } from "../saved-views";
import { showValue } from "./feed-values";

// The Atom feed of a saved view (/v/{slug}/feed.xml): its alert events, newest first. Anyone can
// subscribe in a feed reader or a Slack RSS app without configuring a channel. Only what the
// view's page shows goes in: no channel URL, secret or key.

export const FEED_ENTRIES = 100;

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const show = showValue;

/** The entry's body: the sentence, then the old and new values. */
export function entryContent(summary: string, data: unknown): string {
  const d = (data ?? {}) as { old?: unknown; new?: unknown; diffText?: string[]; demo?: boolean };
  const parts = [`<p>${escape(summary)}</p>`];
  if (d.demo) parts.push("<p><strong>Demo data</strong>: not OpenRouter's live figures.</p>");
  if (Array.isArray(d.diffText) && d.diffText.length) {
    parts.push(`<ul>${d.diffText.map((line) => `<li><code>${escape(line)}</code></li>`).join("")}</ul>`);
  }
  parts.push(`<dl><dt>Old</dt><dd><code>${escape(show(d.old))}</code></dd><dt>New</dt><dd><code>${escape(show(d.new))}</code></dd></dl>`);
  return parts.join("\n");
}

/** The feed's XML, or null when there is no such view. `origin` is the site's (from the request). */
export async function viewFeed(db: Db, slug: string, origin: string): Promise<string | null> {
  const view = await getView(db, slug);
  if (!view) return null;
  const events = await db.alertEvent.findMany({ where: { viewSlug: slug }, orderBy: { id: "desc" }, take: FEED_ENTRIES });
  const viewUrl = `${origin}/v/${slug}`;
  const feed = new Feed({
    id: `${viewUrl}/feed.xml`,
    title: `Routeboard alerts: ${view.name}`,
    description: `What changed in the answer of the saved view “${view.name}” (${view.modelId})`,
    link: viewUrl,
    feedLinks: { atom: `${viewUrl}/feed.xml` },
    updated: events[0]?.observedAt ?? new Date(view.updatedAt),
    generator: "Routeboard",
    copyright: "Routeboard",
  });
  for (const e of events) {
    feed.addItem({
      id: `urn:uuid:${e.eventId}`,
      title: e.summary,
      link: viewUrl,
      date: e.observedAt,
      description: e.summary,
      content: entryContent(e.summary, e.data),
      category: [{ term: e.kind, name: e.kind }],
    });
  }
  return feed.atom1();
}
