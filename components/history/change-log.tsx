"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import { formatUtc } from "@/lib/format";
import type { ChangePage } from "@/lib/history/change-log";
import { CHANGE_KINDS, type ChangeKind } from "@/lib/history/changes";
import { changeLogParsers } from "@/lib/view-state/change-log";
import { useSnapshotVersion } from "../models/live-snapshot";
import { apiFetch, modelApiPath } from "../ui/api-fetch";
import { fieldClass } from "@/components/ui/input";

const KIND_LABELS: Record<ChangeKind, string> = {
  added: "Provider added",
  removed: "Provider removed",
  price: "Price",
  quantization: "Quantization",
  tag: "Tag",
  status: "Status",
  uptime: "Uptime crossed threshold",
  probe: "Probe verdict",
};

const KIND_STYLES: Record<ChangeKind, string> = {
  added: "bg-emerald-50 text-emerald-700 ring-emerald-200",
  removed: "bg-red-50 text-red-700 ring-red-200",
  price: "bg-amber-50 text-amber-800 ring-amber-200",
  quantization: "bg-violet-50 text-violet-700 ring-violet-200",
  tag: "bg-sky-50 text-sky-700 ring-sky-200",
  status: "bg-slate-100 text-slate-700 ring-slate-300",
  uptime: "bg-orange-50 text-orange-700 ring-orange-200",
  probe: "bg-teal-50 text-teal-700 ring-teal-200",
};

function describe(kind: ChangeKind, before: string | null, after: string | null): string {
  switch (kind) {
    case "added":
      return after ? `appeared (${after})` : "appeared";
    case "removed":
      return "no longer listed";
    case "price":
      return `input / output $/M: ${before} → ${after}`;
    case "uptime":
      return `30-minute uptime ${before}% → ${after}%`;
    default:
      return `${before ?? "none"} → ${after ?? "none"}`;
  }
}

const FILTER_OPTIONS = { history: "replace", shallow: true } as const;

/**
 * Stored changes, newest first, filtered by kind and provider (both kept in the link); older pages
 * load on demand. The provider filter lists every provider the model has now and every one the log
 * names, so a provider with no change yet can be chosen too.
 */
export function ChangeLog({ modelId, currentProviders = [] }: { modelId: string; currentProviders?: string[] }) {
  // One hook a key: a multi-key useQueryStates can re-base on a stale copy of the other key when
  // two changes come close together (nuqs #774, #1498), which a browser test once caught: the kind
  // set back to "All kinds", then a provider chosen, showed the old kind again.
  const [ck, setCk] = useQueryState("ck", changeLogParsers.ck.withOptions(FILTER_OPTIONS));
  const [cp, setCp] = useQueryState("cp", changeLogParsers.cp.withOptions(FILTER_OPTIONS));
  const kind: ChangeKind | "" = ck ?? "";
  const provider = cp ?? "";
  const setKind = (value: ChangeKind | "") => void setCk(value || null);
  const setProvider = (value: string) => void setCp(value || null);
  // Keyed by the snapshot the page shows: a new poll reloads the log with the table.
  const snapshot = useSnapshotVersion();
  const query = useInfiniteQuery({
    queryKey: ["changes", modelId, kind, provider, snapshot],
    initialPageParam: null as number | null,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ kind, provider, limit: "25" });
      if (pageParam) params.set("before", String(pageParam));
      return apiFetch<ChangePage>(`${modelApiPath(modelId)}/changes?${params}`);
    },
    getNextPageParam: (last) => last.nextBefore,
    // While a new snapshot's log loads, the last one stays (a new filter starts empty instead).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === kind && previousQuery.queryKey[3] === provider ? previous : undefined,
  });
  const changes = query.data?.pages.flatMap((p) => p.changes) ?? [];
  const providers = query.data?.pages[0]?.providers ?? [];

  return (
    <section aria-labelledby="change-log-heading" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <h3 id="change-log-heading" className="text-sm font-medium text-slate-800">Change log</h3>
        <div className="flex flex-wrap gap-2 text-sm">
          <label className="flex items-center gap-1.5 text-slate-600">
            Kind
            <select aria-label="Kind" value={kind} onChange={(e) => setKind(e.target.value as ChangeKind | "")} className={fieldClass({ className: "bg-white text-slate-800" })}>
              <option value="">All kinds</option>
              {CHANGE_KINDS.map((k) => (
                <option key={k} value={k}>{KIND_LABELS[k]}</option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-1.5 text-slate-600">
            Provider
            <select aria-label="Provider" value={provider} onChange={(e) => setProvider(e.target.value)} className={fieldClass({ className: "bg-white text-slate-800" })}>
              <option value="">All providers</option>
              {[...new Set([...currentProviders, ...providers, ...(provider ? [provider] : [])])].sort((a, b) => a.localeCompare(b)).map((p) => (
                <option key={p} value={p}>{p}</option>
              ))}
            </select>
          </label>
        </div>
      </div>
      {query.isError ? (
        <p role="alert" className="px-4 py-6 text-sm text-red-700">Could not load the change log: {query.error.message}</p>
      ) : query.isPending ? (
        <p className="px-4 py-6 text-sm text-slate-500">Loading changes…</p>
      ) : changes.length === 0 ? (
        <p className="px-4 py-6 text-sm text-slate-500">
          {kind || provider ? "No change matches the filter." : "No change since the first poll: prices, tags, quantizations and statuses are as first seen."}
        </p>
      ) : (
        <ol aria-label="Changes" className="divide-y divide-slate-100">
          {changes.map((c) => (
            <li key={c.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-4 py-2 text-sm">
              <time dateTime={c.observedAt} className="w-40 shrink-0 text-xs text-slate-500 tabular-nums">{formatUtc(c.observedAt)}</time>
              <span className={`rounded-full px-2 py-0.5 text-xs ring-1 ring-inset ${KIND_STYLES[c.kind]}`}>{KIND_LABELS[c.kind]}</span>
              <span className="font-medium">{c.provider}</span>
              <span className="font-mono text-xs text-slate-500">{c.tag}</span>
              <span className="text-slate-700">{describe(c.kind, c.before, c.after)}</span>
            </li>
          ))}
        </ol>
      )}
      {query.hasNextPage && (
        <div className="border-t border-slate-100 px-4 py-2">
          <button
            type="button"
            onClick={() => query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
            className="text-sm font-medium text-indigo-700 hover:underline disabled:opacity-60"
          >
            {query.isFetchingNextPage ? "Loading…" : "Older changes"}
          </button>
        </div>
      )}
    </section>
  );
}
