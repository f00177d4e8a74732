import { viewUrl, type EventForMessage } from "../message";
import type { ChannelDefinition } from "./kinds";

// A Slack incoming webhook receives a readable message: the sentence, a link back to the view, and
// where it came from. Slack's URL is the secret; the message is not signed.

/** Slack's mrkdwn needs only these three escaped. */
function slackEscape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

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

export const slackChannel: ChannelDefinition = {
  label: "Slack",
  urlLabel: "Slack incoming-webhook URL",
  urlPlaceholder: "https://hooks.slack.com/services/…",
  description: "Slack receives a readable message with a link back to the view",
  signed: false,
  body: slackBody,
  headers: () => ({}),
};
