import { CHANNELS, type ChannelKind } from "./channels";
import { SIGNATURE_HEADER } from "./channels/webhook";
import type { EventForMessage } from "./message";
import { signDelivery } from "./sign";

// The payload builder: the request a channel receives for one alert event, body and headers, built
// by its kind's definition (lib/alerts/channels/) and signed when the kind signs and the channel
// has a secret.

export type { EventForMessage } from "./message";
export { viewUrl } from "./message";
export { webhookBody, type WebhookBodyV1 } from "./channels/webhook";
export { slackBody } from "./channels/slack";

export function channelRequest(
  kind: ChannelKind,
  event: EventForMessage,
  { baseUrl, secret, now = new Date() }: { baseUrl: string; secret: string | null; now?: Date },
): { body: string; headers: Record<string, string> } {
  const channel = CHANNELS[kind];
  const body = JSON.stringify(channel.body(event, baseUrl));
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers = channel.headers(event, timestamp);
  if (channel.signed && secret) headers[SIGNATURE_HEADER] = signDelivery(secret, timestamp, body);
  return { body, headers };
}
