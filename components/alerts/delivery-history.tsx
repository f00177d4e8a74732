"use client";

import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/ui/api-fetch";
import { formatUtc } from "@/lib/format";
import { deliveriesKey, type DeliveryView } from "./types";

const STATUS_STYLE: Record<DeliveryView["status"], string> = {
  sent: "bg-emerald-100 text-emerald-900",
  pending: "bg-slate-100 text-slate-800",
  sending: "bg-sky-100 text-sky-900",
  retrying: "bg-amber-100 text-amber-900",
  failed: "bg-red-100 text-red-900",
};

const UNSETTLED = new Set<DeliveryView["status"]>(["pending", "sending", "retrying"]);

/** The last deliveries to one channel, refreshed every 2 s while any is still on its way. */
export function DeliveryHistory({ channelId, channelName }: { channelId: number; channelName: string }) {
  const { data, error } = useQuery({
    queryKey: deliveriesKey(channelId),
    queryFn: async () => (await apiFetch<{ deliveries: DeliveryView[] }>(`/api/alerts/deliveries?channel=${channelId}&limit=10`)).deliveries,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.some((d) => UNSETTLED.has(d.status)) ? 2_000 : false),
  });
  if (error) return <p role="alert" className="text-sm text-red-700">The history could not be read: {error.message}</p>;
  if (!data) return <p className="text-sm text-slate-500">Loading the history…</p>;
  if (!data.length) return <p className="text-sm text-slate-600">Nothing sent yet. “Send test” sends a test message.</p>;
  return (
    <div className="overflow-x-auto">
      <table aria-label={`Deliveries to ${channelName}`} className="w-full text-left text-sm sm:min-w-[36rem]">
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="py-1.5 pr-3 font-medium">Event</th>
            <th scope="col" className="py-1.5 pr-3 font-medium">Status</th>
            <th scope="col" className="hidden py-1.5 pr-3 text-right font-medium sm:table-cell">Attempts</th>
            <th scope="col" className="py-1.5 pr-3 font-medium">Last error / answer</th>
            <th scope="col" className="hidden py-1.5 font-medium sm:table-cell">When (UTC)</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {data.map((d) => (
            <tr key={d.id} className="align-top">
              <td className="max-w-sm py-1.5 pr-3">
                <span className="block text-slate-900">{d.summary}</span>
                <span className="block text-xs text-slate-500">
                  {d.kind}
                  {d.viewName ? ` · ${d.viewName}` : ""}
                </span>
              </td>
              <td className="py-1.5 pr-3">
                <span className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_STYLE[d.status]}`}>{d.status}</span>
                {/* On a phone the attempts and time columns are folded in here. */}
                <span className="mt-0.5 block text-xs text-slate-500 sm:hidden">
                  {d.attempts} {d.attempts === 1 ? "attempt" : "attempts"}, {formatUtc(d.sentAt ?? d.createdAt)}
                </span>
              </td>
              <td className="hidden py-1.5 pr-3 text-right font-mono tabular-nums sm:table-cell">{d.attempts}</td>
              <td className="max-w-xs py-1.5 pr-3 text-slate-700">
                {d.lastError ?? (d.responseStatus !== null ? `answered ${d.responseStatus}` : "—")}
                {d.status === "retrying" && d.nextAttemptAt && <span className="block text-xs text-slate-500">next try {formatUtc(d.nextAttemptAt)}</span>}
              </td>
              <td className="hidden whitespace-nowrap py-1.5 font-mono text-xs text-slate-600 sm:table-cell">{formatUtc(d.sentAt ?? d.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
