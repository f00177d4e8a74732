import "server-only";
import type { Db } from "../db/engines";
import { getView } from "../saved-views";
import { showValue } from "./feed-values";

// The Atom feed (RFC 4287) of a saved view (/v/{slug}/feed.xml): its alert events, newest first.
// Anyone who may open the view can subscribe in a feed reader or a Slack RSS app without
// configuring a channel; with BASIC_AUTH on, through the view's private feed link
// (lib/alerts/feed-token.ts). Only what the view's page shows goes in: no channel URL, secret or key.
//
// Written here rather than with a feed library, so every piece of text is escaped one way: the
// sentences (which quote provider names from OpenRouter's data) are plain text (type="text"),
// and only the entry's content is HTML, built from escaped parts.

export const FEED_ENTRIES = 100;
export const FEED_AUTHOR = "Routeboard";

/** Characters XML 1.0 cannot carry at all (control characters, lone surrogates, U+FFFE/U+FFFF): dropped. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text for an XML element or a double-quoted attribute. */
export function xmlText(s: string): string {
  return s.replace(NOT_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Text for HTML (the content's parts): the same escapes. */
const html = xmlText;

/** The entry's body, as HTML: the sentence, then the old and new values. */
export function entryContent(summary: string, data: unknown): string {
  const d = (data ?? {}) as { old?: unknown; new?: unknown; diffText?: string[]; demo?: boolean };
  const parts = [`<p>${html(summary)}</p>`];
  if (d.demo) parts.push("<p><strong>Demo data</strong>: not OpenRouter's live figures.</p>");
  if (Array.isArray(d.diffText) && d.diffText.length) {
    parts.push(`<ul>${d.diffText.map((line) => `<li><code>${html(String(line))}</code></li>`).join("")}</ul>`);
  }
  parts.push(`<dl><dt>Old</dt><dd><code>${html(showValue(d.old))}</code></dd><dt>New</dt><dd><code>${html(showValue(d.new))}</code></dd></dl>`);
  return parts.join("\n");
}

export interface FeedAddress {
  /** The site's address as the reader reached it ("https://routeboard.example"). */
  origin: string;
  /** The address this feed was fetched at (rel="self"): the private link's, token and all, when it was used. */
  self?: string;
}

/** The feed's XML, or null when there is no such view. */
export async function viewFeed(db: Db, slug: string, address: FeedAddress): Promise<string | null> {
  const view = await getView(db, slug);
  if (!view) return null;
  const events = await db.alertEvent.findMany({ where: { viewSlug: slug }, orderBy: { id: "desc" }, take: FEED_ENTRIES });
  const viewUrl = `${address.origin}/v/${slug}`;
  const feedUrl = `${viewUrl}/feed.xml`;
  const updated = events[0]?.observedAt ?? new Date(view.updatedAt);
  const author = `<author><name>${xmlText(FEED_AUTHOR)}</name></author>`;
  const lines = [
    `<?xml version="1.0" encoding="utf-8"?>`,
    `<feed xmlns="http://www.w3.org/2005/Atom">`,
    `  <id>${xmlText(feedUrl)}</id>`,
    `  <title type="text">${xmlText(`Routeboard alerts: ${view.name}`)}</title>`,
    `  <subtitle type="text">${xmlText(`What changed in the answer of the saved view “${view.name}” (${view.modelId})`)}</subtitle>`,
    `  <updated>${updated.toISOString()}</updated>`,
    `  ${author}`,
    `  <link rel="self" type="application/atom+xml" href="${xmlText(address.self ?? feedUrl)}"/>`,
    `  <link rel="alternate" type="text/html" href="${xmlText(viewUrl)}"/>`,
    `  <generator>Routeboard</generator>`,
  ];
  for (const e of events) {
    lines.push(
      `  <entry>`,
      `    <id>urn:uuid:${xmlText(e.eventId)}</id>`,
      `    <title type="text">${xmlText(e.summary)}</title>`,
      `    <updated>${e.observedAt.toISOString()}</updated>`,
      `    ${author}`,
      `    <link rel="alternate" type="text/html" href="${xmlText(viewUrl)}"/>`,
      `    <category term="${xmlText(e.kind)}" label="${xmlText(e.kind)}"/>`,
      `    <summary type="text">${xmlText(e.summary)}</summary>`,
      `    <content type="html">${xmlText(entryContent(e.summary, e.data))}</content>`,
      `  </entry>`,
    );
  }
  lines.push(`</feed>`, "");
  return lines.join("\n");
}
