import { viewUrl, type EventForMessage } from "../message";
import type { ChannelDefinition } from "./kinds";

// A webhook receives a documented, versioned JSON body (docs/alerts.md, "Alerts: channels and
// delivery"), signed with the channel's secret (lib/alerts/sign.ts). Add fields freely, but a
// change to the meaning or type of one is a new schemaVersion.

export const SIGNATURE_HEADER = "X-Routeboard-Signature";
export const EVENT_ID_HEADER = "X-Routeboard-Event-Id";
export const TIMESTAMP_HEADER = "X-Routeboard-Timestamp";

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

export const webhookChannel: ChannelDefinition = {
  label: "Webhook",
  urlLabel: "Webhook URL",
  urlPlaceholder: "https://example.com/routeboard-hook",
  description: "A webhook receives signed JSON (schema in docs/alerts.md)",
  signed: true,
  body: webhookBody,
  headers: (event, timestamp) => ({ [EVENT_ID_HEADER]: event.eventId, [TIMESTAMP_HEADER]: String(timestamp) }),
};
