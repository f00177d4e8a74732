"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/ui/api-fetch";
import { CHANNEL_KINDS, CHANNELS } from "@/lib/alerts/channels";
import { AddChannelForm } from "./add-channel-form";
import { ChannelCard } from "./channel-card";
import { CHANNELS_KEY, type ChannelView } from "./types";

/** The channels section: the form to add one, then each channel with its controls and history. */
export function AlertChannels({ initialChannels }: { initialChannels: ChannelView[] }) {
  const { data: channels } = useQuery({
    queryKey: CHANNELS_KEY,
    queryFn: async () => (await apiFetch<{ channels: ChannelView[] }>("/api/alerts/channels")).channels,
    initialData: initialChannels,
  });
  return (
    <section aria-labelledby="channels-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div>
        <h2 id="channels-heading" className="text-lg font-semibold">Channels</h2>
        <p className="text-sm text-slate-600">
          {CHANNEL_KINDS.map((k) => CHANNELS[k].description).join("; ")}. URLs and secrets stay on the server once saved.
        </p>
      </div>
      <AddChannelForm />
      {channels.length === 0 ? (
        <p className="text-sm text-slate-600">No channel yet: until one is added, alerts show only in the app and its feeds.</p>
      ) : (
        <ul aria-label="Alert channels" className="space-y-4">
          {channels.map((c) => (
            <li key={c.id}>
              <ChannelCard channel={c} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
