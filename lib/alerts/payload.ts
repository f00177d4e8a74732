// What each channel kind receives for one alert event. The webhook body is a documented, versioned
// schema (README, "Alerts: channels and delivery"); add fields freely, but a change to the meaning
// or type of one is a new schemaVersion.

export interface EventForMessage {
  eventId: string;
  kind: string;
  viewSlug: string | null;
  viewName: string | null;
  modelId: string | null;
  summary: string;
  data: unknown;
  observedAt: Date;
}

export interface WebhookBodyV1 {
  schemaVersion: 1;
  eventId: string;
  kind: string;
  occurredAt: string;
  view: { slug: string; name: string; url: string } | null;
  model: string | null;
  summary: string;
  data: unknown;
}

/** The absolute address of a saved view (or of the alerts page when the event has no view). */
export function viewUrl(baseUrl: string, slug: string): string {
  return new URL(`/v/${encodeURIComponent(slug)}`, baseUrl).toString();
}

export function webhookBody(event: EventForMessage, baseUrl: string): WebhookBodyV1 {
  return {
    schemaVersion: 1,
    eventId: event.eventId,
    kind: event.kind,
    occurredAt: event.observedAt.toISOString(),
    view: event.viewSlug ? { slug: event.viewSlug, name: event.viewName ?? event.viewSlug, url: viewUrl(baseUrl, event.viewSlug) } : null,
    model: event.modelId,
    summary: event.summary,
    data: event.data,
  };
}

/** Slack's mrkdwn needs only these three escaped. */
function slackEscape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** A Slack incoming-webhook message: the sentence, a link back to the view, and where it came from. */
export function slackBody(event: EventForMessage, baseUrl: string) {
  const link = event.viewSlug
    ? `<${viewUrl(baseUrl, event.viewSlug)}|${slackEscape(event.viewName ?? event.viewSlug)}>`
    : `<${new URL("/alerts", baseUrl).toString()}|Routeboard alerts>`;
  const context = [`*${slackEscape(event.kind)}*`, event.modelId ? `\`${slackEscape(event.modelId)}\`` : null, event.observedAt.toISOString()]
    .filter(Boolean)
    .join(" · ");
  return {
    text: `${event.summary} (${event.viewName ?? "Routeboard"})`,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `${slackEscape(event.summary)}\n${link}` } },
      { type: "context", elements: [{ type: "mrkdwn", text: `${context} · event ${event.eventId}` }] },
    ],
  };
}
