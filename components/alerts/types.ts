// What the alerts API answers (lib/alerts/channels.ts, lib/alerts/deliveries.ts), as the browser sees it.
export type { ChannelView } from "@/lib/alerts/channels/store";
export type { DeliveryView } from "@/lib/alerts/deliveries";

export const CHANNELS_KEY = ["alert-channels"] as const;
export const deliveriesKey = (channelId: number) => ["alert-deliveries", channelId] as const;
