"use client";

import { useMutation } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { formatUtc } from "@/lib/format";
import { savedByText } from "@/lib/saved-view-author";
import type { SavedViewEntry } from "@/lib/saved-views";
import { apiFetch } from "../ui/api-fetch";
import { ShortLink, useBrowserOrigin } from "./short-link";
import { Input } from "@/components/ui/input";

interface Props {
  modelId: string;
  views: SavedViewEntry[];
  activeSlug: string | null;
  /** The current view's query string, without the leading "?". */
  query: string;
  /** How many endpoints the current rules include: a view including none is saved with a warning. */
  includedCount: number;
}

// The alert conditions load when asked for, so the model page does not carry them.
const ViewAlertsEditor = dynamic(() => import("../alerts/view-alerts-editor"), {
  loading: () => <p className="text-xs text-slate-600">Loading the alert conditions…</p>,
});

const NOTHING_INCLUDED =
  "This view includes no provider: its routing link answers 422 (an empty list would not restrict OpenRouter at all), so a pipeline reading it stops until a rule is loosened.";

/** The team's saved views of this model: save the current rules under a name, update, delete. */
export function SavedViewsPanel({ modelId, views, activeSlug, query, includedCount }: Props) {
  const nothingIncluded = includedCount === 0;
  const router = useRouter();
  const [name, setName] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string; warning?: boolean } | null>(null);
  const origin = useBrowserOrigin() ?? "";
  const [alertsOpen, setAlertsOpen] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: () => apiFetch<SavedViewEntry>("/api/views", { method: "POST", body: JSON.stringify({ name, modelId, query }) }),
    onSuccess: (view) => {
      setName("");
      setMessage({ ok: true, text: `Saved “${view.name}”: short link ${origin}/v/${view.slug}`, warning: nothingIncluded });
      router.refresh();
    },
    onError: (err) => setMessage({ ok: false, text: err.message }),
  });
  const update = useMutation({
    mutationFn: (slug: string) => apiFetch<SavedViewEntry>(`/api/views/${slug}`, { method: "PUT", body: JSON.stringify({ query }) }),
    onSuccess: (view) => {
      setMessage({ ok: true, text: `Updated “${view.name}” with the current rules`, warning: nothingIncluded });
      router.refresh();
    },
    onError: (err) => setMessage({ ok: false, text: err.message }),
  });
  const remove = useMutation({
    mutationFn: (slug: string) => apiFetch(`/api/views/${slug}`, { method: "DELETE" }),
    onSuccess: () => {
      setMessage({ ok: true, text: "Deleted the view; its short link now answers “not found”" });
      router.refresh();
    },
    onError: (err) => setMessage({ ok: false, text: err.message }),
  });

  return (
    <section aria-labelledby="views-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="views-heading" className="text-sm font-semibold text-slate-900">Saved views</h2>
      <form
        className="mt-2 flex flex-wrap gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <label className="sr-only" htmlFor="view-name">View name</label>
        <Input
          id="view-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={80}
          placeholder="e.g. EAGLE-3 full precision"
          className="min-w-0 flex-1 text-sm"
        />
        <button type="submit" disabled={create.isPending} className="rounded-md bg-indigo-600 px-3 py-1 text-sm font-medium text-white disabled:opacity-60">
          Save view
        </button>
      </form>
      {nothingIncluded && (
        <p role="alert" aria-label="Saving warning" className="mt-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          {NOTHING_INCLUDED}
        </p>
      )}
      {message && (
        <p role="status" className={`mt-2 text-sm ${message.ok ? "text-emerald-700" : "text-red-700"}`}>
          {message.text}
          {message.warning && <span className="block font-medium text-amber-800">Warning: it includes no provider; its routing link answers 422.</span>}
        </p>
      )}
      <ul aria-label="Saved views" className="mt-3 divide-y divide-slate-100 text-sm">
        {views.map((v) => (
          <li key={v.slug} aria-label={v.name} className="flex flex-wrap items-start justify-between gap-2 py-2">
            <span className="flex min-w-0 flex-1 flex-col gap-1">
              <span>
                <Link href={`/v/${v.slug}`} className="font-medium text-indigo-700 hover:underline">
                  {v.name}
                </Link>
                {v.slug === activeSlug && <span className="ml-2 rounded bg-indigo-50 px-1.5 text-xs text-indigo-700">open</span>}
              </span>
              <ShortLink slug={v.slug} name={v.name} />
              <span className="text-xs text-slate-500">
                Saved by {savedByText(v.createdBy)} on {formatUtc(v.createdAt)} ·{" "}
                <a href={`/v/${v.slug}/feed.xml`} className="text-indigo-700 underline" aria-label={`Alerts feed of ${v.name}`}>
                  Alerts feed
                </a>
              </span>
              {alertsOpen === v.slug && <ViewAlertsEditor slug={v.slug} name={v.name} />}
            </span>
            <span className="flex gap-2">
              <button
                type="button"
                onClick={() => setAlertsOpen(alertsOpen === v.slug ? null : v.slug)}
                aria-expanded={alertsOpen === v.slug}
                className="text-xs text-slate-700 hover:underline"
                aria-label={`Alerts of ${v.name}`}
              >
                Alerts
              </button>
              <button type="button" onClick={() => update.mutate(v.slug)} className="text-xs text-slate-700 hover:underline" aria-label={`Update ${v.name}`}>
                Update
              </button>
              <button
                type="button"
                onClick={() => {
                  if (window.confirm(`Delete the view “${v.name}”? Its short link will stop working.`)) remove.mutate(v.slug);
                }}
                className="text-xs text-red-700 hover:underline"
                aria-label={`Delete ${v.name}`}
              >
                Delete
              </button>
            </span>
          </li>
        ))}
        {views.length === 0 && <li className="py-2 text-slate-500">No saved views of this model yet.</li>}
      </ul>
    </section>
  );
}
