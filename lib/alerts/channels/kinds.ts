import type { EventForMessage } from "../message";

// What every alert channel kind defines, in one place per kind (webhook.ts, slack.ts), gathered
// in CHANNELS (index.ts) as a Record over CHANNEL_KINDS: a kind added to the list without its
// definition does not compile. Nothing here touches the server: the forms read the same record.

export const CHANNEL_KINDS = ["webhook", "slack"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export interface ChannelDefinition {
  /** The kind's name on the page: the form's option and the channel card's badge. */
  label: string;
  /** The form's URL field: its label and example. */
  urlLabel: string;
  urlPlaceholder: string;
  /** What the kind receives, in a few words for the channels section. */
  description: string;
  /** Whether its messages are signed with the channel's secret (generated when the form leaves it empty); a kind that is not refuses a secret. */
  signed: boolean;
  /** The JSON body it receives for one event. */
  body(event: EventForMessage, baseUrl: string): unknown;
  /** The headers of one attempt sent at `timestamp` (Unix seconds), before any signature. */
  headers(event: EventForMessage, timestamp: number): Record<string, string>;
}
