"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/ui/api-fetch";
import { refetchAfterWrite } from "@/components/ui/refetch-after-write";
import { CHANNELS } from "@/lib/alerts/channels";
import { DeliveryHistory } from "./delivery-history";
import { CHANNELS_KEY, deliveriesKey, type ChannelView } from "./types";

const buttonClass = "rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm text-slate-700 shadow-sm hover:bg-slate-50 disabled:opacity-60";

/** One channel: what it is, its switches ("Send test", enable, delete) and its delivery history. */
export function ChannelCard({ channel }: { channel: ChannelView }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const headingId = `channel-${channel.id}-name`;
  const refresh = () => {
    void refetchAfterWrite(queryClient, CHANNELS_KEY);
    void refetchAfterWrite(queryClient, deliveriesKey(channel.id));
  };
  const onError = (err: Error) => setNote({ ok: false, text: err.message });

  const toggle = useMutation({
    mutationFn: (enabled: boolean) => apiFetch(`/api/alerts/channels/${channel.id}`, { method: "PATCH", body: JSON.stringify({ enabled }) }),
    onSuccess: (_r, enabled) => {
      setNote({ ok: true, text: enabled ? "Enabled." : "Disabled: new alerts are not sent here." });
      refresh();
    },
    onError,
  });
  const test = useMutation({
    mutationFn: () => apiFetch(`/api/alerts/channels/${channel.id}/test`, { method: "POST" }),
    onSuccess: () => {
      setNote({ ok: true, text: "Test message queued: its delivery shows below." });
      refresh();
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: () => apiFetch(`/api/alerts/channels/${channel.id}`, { method: "DELETE" }),
    onSuccess: refresh,
    onError,
  });

  return (
    <article aria-labelledby={headingId} className="space-y-3 rounded-md border border-slate-200 p-3 sm:p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={headingId} className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
            {channel.name}
            <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-normal text-slate-700">{CHANNELS[channel.kind].label}</span>
            {!channel.enabled && <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-normal text-amber-900">disabled</span>}
          </h3>
          <p className="mt-0.5 text-xs text-slate-600">
            <span className="break-all font-mono">{channel.urlHint}</span>
            {channel.signed && <span className="ml-2 whitespace-nowrap text-slate-500">· signed (HMAC-SHA256)</span>}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <button type="button" className={buttonClass} disabled={toggle.isPending} onClick={() => toggle.mutate(!channel.enabled)}>
            {channel.enabled ? "Disable" : "Enable"}
          </button>
          <button type="button" className={buttonClass} disabled={test.isPending || !channel.enabled} onClick={() => test.mutate()}>
            {test.isPending ? "Sending…" : "Send test"}
          </button>
          {confirming ? (
            <span className="inline-flex items-center gap-2" role="group" aria-label={`Delete ${channel.name}?`}>
              <button type="button" className="rounded-md bg-red-700 px-2.5 py-1 text-sm text-white shadow-sm hover:bg-red-600 disabled:opacity-60" disabled={remove.isPending} onClick={() => remove.mutate()}>
                Delete for good
              </button>
              <button type="button" className={buttonClass} onClick={() => setConfirming(false)}>
                Keep
              </button>
            </span>
          ) : (
            <button type="button" className={buttonClass} onClick={() => setConfirming(true)}>
              Delete
            </button>
          )}
        </div>
      </div>
      {confirming && <p className="text-sm text-red-800">Deleting “{channel.name}” also deletes its delivery history.</p>}
      <p role="status" className={`text-sm ${note?.ok === false ? "text-red-700" : "text-slate-700"} empty:hidden`}>
        {note?.text ?? ""}
      </p>
      <DeliveryHistory channelId={channel.id} channelName={channel.name} />
    </article>
  );
}
