"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import type { ViewAlertSettings } from "@/lib/alerts/view-settings";
import { apiFetch } from "../ui/api-fetch";
import { PrivateFeedLink } from "./private-feed-link";
import { Input } from "@/components/ui/input";

// A saved view's alert conditions (GET/PUT /api/views/{slug}/alerts). Loaded on demand by the
// saved views panel's "Alerts" button, so the model page does not carry it.

type Conditions = Pick<ViewAlertSettings, "enabled" | "includedSet" | "routing" | "endpointChange" | "uptime" | "probeVerdict" | "provenanceSuspect">;

const CONDITIONS: Array<{ key: Exclude<keyof Conditions, "enabled">; label: string }> = [
  { key: "includedSet", label: "An endpoint enters or leaves the included set" },
  { key: "routing", label: "The routing export changes" },
  { key: "endpointChange", label: "An included endpoint changes price, quantization, tag or status" },
  { key: "uptime", label: "An included endpoint’s uptime stays below the threshold for 2 polls" },
  { key: "probeVerdict", label: "A probe verdict of an included endpoint changes" },
  { key: "provenanceSuspect", label: "Generations judged trusted under this view turn suspect (provenance)" },
];

export default function ViewAlertsEditor({ slug, name }: { slug: string; name: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: ["view-alerts", slug], queryFn: () => apiFetch<ViewAlertSettings>(`/api/views/${slug}/alerts`) });
  const [draft, setDraft] = useState<Conditions | null>(null);
  const [threshold, setThreshold] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    if (current.data && draft === null) {
      const { enabled, includedSet, routing, endpointChange, uptime, probeVerdict, provenanceSuspect, uptimeThreshold } = current.data;
      setDraft({ enabled, includedSet, routing, endpointChange, uptime, probeVerdict, provenanceSuspect });
      setThreshold(uptimeThreshold === null ? "" : String(uptimeThreshold));
    }
  }, [current.data, draft]);

  const save = useMutation({
    mutationFn: () =>
      apiFetch<ViewAlertSettings>(`/api/views/${slug}/alerts`, {
        method: "PUT",
        body: JSON.stringify({ ...draft, uptimeThreshold: threshold.trim() === "" ? null : Number(threshold) }),
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(["view-alerts", slug], saved);
      setMessage({
        ok: true,
        text: saved.enabled
          ? saved.watching
            ? `Alerts on for “${name}”.`
            : `Alerts on for “${name}”: the next poll records its answer; changes after it are notified.`
          : `Alerts off for “${name}”.`,
      });
    },
    onError: (err) => setMessage({ ok: false, text: err.message }),
  });

  if (current.isError) return <p role="alert" className="text-xs text-red-700">{(current.error as Error).message}</p>;
  if (!draft) return <p className="text-xs text-slate-600">Loading the alert conditions…</p>;

  return (
    <>
      <form
        aria-label={`Alerts of ${name}`}
        className="mt-2 space-y-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-xs text-slate-800"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <label className="flex items-center gap-2 font-medium">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => setDraft({ ...draft, enabled: e.target.checked })} />
          Alerts on
        </label>
        <fieldset disabled={!draft.enabled} className="space-y-1 disabled:opacity-60">
          <legend className="sr-only">Conditions</legend>
          {CONDITIONS.map((c) => (
            <label key={c.key} className="flex items-start gap-2">
              <input type="checkbox" className="mt-0.5" checked={draft[c.key]} onChange={(e) => setDraft({ ...draft, [c.key]: e.target.checked })} />
              {c.label}
            </label>
          ))}
          <label htmlFor={`${id}-threshold`} className="mt-1 block">
            Uptime threshold (%)
          </label>
          <Input
            id={`${id}-threshold`}
            inputMode="decimal"
            value={threshold}
            onChange={(e) => setThreshold(e.target.value)}
            placeholder="the view’s uptime rule, else 95"
            className="w-56 bg-white"
          />
        </fieldset>
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" disabled={save.isPending} className="rounded-md bg-indigo-600 px-3 py-1 font-medium text-white disabled:opacity-60">
            Save alerts
          </button>
          <a href={`/v/${slug}/feed.xml`} className="text-indigo-700 underline">
            Atom feed
          </a>
        </div>
        {message && (
          <p role="status" className={message.ok ? "text-emerald-800" : "text-red-700"}>
            {message.text}
          </p>
        )}
      </form>
      <PrivateFeedLink slug={slug} name={name} />
    </>
  );
}
