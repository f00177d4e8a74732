"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { FeedLinkState } from "@/lib/alerts/feed-token";
import { formatUtc } from "@/lib/format";
import { useBrowserOrigin } from "../providers/short-link";
import { apiFetch } from "../ui/api-fetch";
import { CopyButton } from "../ui/copy-button";

// A saved view's private feed link (GET/POST/DELETE /api/views/{slug}/feed-link): for a feed reader
// that cannot sign in when BASIC_AUTH is on. The server keeps only the token's hash, so a new link
// is shown once, here, right after it is made.

export function PrivateFeedLink({ slug, name }: { slug: string; name: string }) {
  const queryClient = useQueryClient();
  const origin = useBrowserOrigin() ?? "";
  const key = ["view-feed-link", slug];
  const state = useQuery({ queryKey: key, queryFn: () => apiFetch<FeedLinkState>(`/api/views/${slug}/feed-link`) });
  const [shown, setShown] = useState<string | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const make = useMutation({
    mutationFn: () => apiFetch<{ path: string; createdAt: string }>(`/api/views/${slug}/feed-link`, { method: "POST" }),
    onSuccess: (made) => {
      queryClient.setQueryData<FeedLinkState>(key, { createdAt: made.createdAt });
      setShown(`${origin}${made.path}`);
      setMessage({ ok: true, text: "Private feed link made. Copy it now: it is not shown again." });
    },
    onError: (err) => setMessage({ ok: false, text: err.message }),
  });
  const revoke = useMutation({
    mutationFn: () => apiFetch<FeedLinkState>(`/api/views/${slug}/feed-link`, { method: "DELETE" }),
    onSuccess: () => {
      queryClient.setQueryData<FeedLinkState>(key, { createdAt: null });
      setShown(null);
      setMessage({ ok: true, text: "Private feed link revoked: it no longer opens the feed." });
    },
    onError: (err) => setMessage({ ok: false, text: err.message }),
  });

  const createdAt = state.data?.createdAt ?? null;
  return (
    <section aria-label={`Private feed link of ${name}`} className="mt-2 space-y-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-xs text-slate-800">
      <h3 className="font-medium">Private feed link</h3>
      <p className="text-slate-600">
        For a feed reader that cannot sign in: the link opens this view’s alerts feed, and nothing else, without the site’s password. Anyone
        holding it can read the feed until it is revoked.
      </p>
      {state.isError ? (
        <p role="alert" className="text-red-700">{(state.error as Error).message}</p>
      ) : state.isPending ? (
        <p>Loading…</p>
      ) : (
        <p>{createdAt ? `A private link made ${formatUtc(createdAt)} is in use (it was shown once).` : "No private link yet."}</p>
      )}
      {shown && (
        <span className="flex w-full max-w-xl min-w-0 items-center gap-2">
          <input
            readOnly
            value={shown}
            aria-label={`Private feed URL of ${name}`}
            onFocus={(e) => e.currentTarget.select()}
            className="w-full min-w-0 flex-1 rounded border border-slate-200 bg-white px-1.5 py-0.5 font-mono text-xs text-slate-700"
          />
          <CopyButton text={shown} label="Copy private feed link" className="px-2 py-0.5 text-xs" />
        </span>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          disabled={make.isPending || state.isPending}
          onClick={() => {
            if (!createdAt || window.confirm(`Make a new private feed link for “${name}”? The old link stops working.`)) make.mutate();
          }}
          className="rounded-md border border-slate-300 bg-white px-3 py-1 font-medium text-slate-800 disabled:opacity-60"
        >
          {createdAt ? "Replace private link" : "Make private link"}
        </button>
        {createdAt && (
          <button type="button" disabled={revoke.isPending} onClick={() => revoke.mutate()} className="text-red-700 underline disabled:opacity-60">
            Revoke private link
          </button>
        )}
      </div>
      {message && (
        <p role="status" className={message.ok ? "text-emerald-800" : "text-red-700"}>
          {message.text}
        </p>
      )}
    </section>
  );
}
