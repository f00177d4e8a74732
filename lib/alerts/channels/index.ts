import { CHANNEL_KINDS, type ChannelDefinition, type ChannelKind } from "./kinds";
import { slackChannel } from "./slack";
import { webhookChannel } from "./webhook";

// The alert channel kinds, one definition each: the sender and the payload builder send through
// it, the API checks input against it (store.ts), and the channel forms draw from it. A kind added
// to CHANNEL_KINDS without an entry here does not compile. How to add one: docs/architecture.md.

export { CHANNEL_KINDS, type ChannelDefinition, type ChannelKind };

export const CHANNELS: Record<ChannelKind, ChannelDefinition> = {
  webhook: webhookChannel,
  slack: slackChannel,
};

export function isChannelKind(kind: string): kind is ChannelKind {
  return (CHANNEL_KINDS as readonly string[]).includes(kind);
}
