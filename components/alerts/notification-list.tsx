"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { showValue as show } from "@/lib/alerts/feed-values";
import type { NotificationEntry } from "@/lib/alerts/notifications";
import { formatUtc } from "@/lib/format";
import { apiFetch } from "../ui/api-fetch";

const KIND_LABEL: Record<string, string> = {
  included: "Included set",
  routing: "Routing export",
  endpoint: "Endpoint",
  "uptime-down": "Uptime down",
  "uptime-recovered": "Recovered",
  probe: "Probe verdict",
  provenance: "Provenance",
  "budget-spend": "Budget",
  "budget-run-out": "Run-out",
  "key-limit": "Key limit",
};

const KIND_STYLE: Record<string, string> = {
  "uptime-down": "bg-red-50 text-red-800 ring-red-200",
  "uptime-recovered": "bg-emerald-50 text-emerald-800 ring-emerald-200",
  provenance: "bg-red-50 text-red-800 ring-red-200",
  "budget-spend": "bg-amber-50 text-amber-900 ring-amber-200",
  "budget-run-out": "bg-amber-50 text-amber-900 ring-amber-200",
  "key-limit": "bg-amber-50 text-amber-900 ring-amber-200",
};

/** The alert events, newest first, with their read marks. */
export function NotificationList({ notifications, unread }: { notifications: NotificationEntry[]; unread: number }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const mark = async (body: object) => {
    setBusy(true);
    setError(null);
    try {
      await apiFetch("/api/notifications/read", { method: "POST", body: JSON.stringify(body) });
      router.refresh();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-700" data-testid="unread-summary">
          {unread === 0 ? "Everything is read." : `${unread} unread`}
        </p>
        <button
          type="button"
          disabled={busy || unread === 0}
          onClick={() => mark({ all: true })}
          className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm text-slate-800 shadow-sm hover:bg-slate-50 disabled:opacity-60"
        >
          Mark all read
        </button>
      </div>
      {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
      {notifications.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-600">
          No alerts yet. Turn alerts on for a saved view (the “Alerts” button in a model’s saved views): the next poll records its
          answer, and every change after that is listed here.
        </p>
      ) : (
        <ol aria-label="Notifications" className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm">
          {notifications.map((n) => {
            const d = (n.data ?? {}) as { old?: unknown; new?: unknown; diffText?: string[] };
            return (
              <li key={n.id} aria-label={n.summary} className={`flex flex-wrap items-start gap-3 px-4 py-3 ${n.read ? "" : "bg-indigo-50/40"}`}>
                <span className="flex min-w-0 flex-1 flex-col gap-1">
                  <span className="flex flex-wrap items-center gap-2 text-xs">
                    <span className={`rounded px-1.5 py-0.5 font-medium ring-1 ${KIND_STYLE[n.kind] ?? "bg-slate-50 text-slate-800 ring-slate-200"}`}>
                      {KIND_LABEL[n.kind] ?? n.kind}
                    </span>
                    {n.demo && <span className="rounded bg-amber-100 px-1.5 py-0.5 font-medium text-amber-900">demo</span>}
                    {!n.read && <span className="font-medium text-indigo-800">unread</span>}
                    <span className="text-slate-600">{formatUtc(n.observedAt)}</span>
                    {n.view ? (
                      <Link href={`/v/${n.view.slug}`} className="text-indigo-700 underline">
                        {n.view.name}
                      </Link>
                    ) : (
                      <Link href="/spend" className="text-indigo-700 underline">Spend</Link>
                    )}
                  </span>
                  <span className="text-sm text-slate-900">{n.summary}</span>
                  {Array.isArray(d.diffText) && d.diffText.length > 0 ? (
                    <ul className="font-mono text-xs text-slate-700">
                      {d.diffText.map((line) => <li key={line}>{line}</li>)}
                    </ul>
                  ) : (
                    <span className="text-xs text-slate-700">
                      <span className="text-slate-600">Old:</span> <span className="font-mono">{show(d.old)}</span>
                      <span className="mx-2 text-slate-400" aria-hidden>→</span>
                      <span className="text-slate-600">New:</span> <span className="font-mono">{show(d.new)}</span>
                    </span>
                  )}
                </span>
                {!n.read && (
                  <button type="button" disabled={busy} onClick={() => mark({ ids: [n.id] })} className="text-xs text-slate-700 underline" aria-label={`Mark read: ${n.summary}`}>
                    Mark read
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
