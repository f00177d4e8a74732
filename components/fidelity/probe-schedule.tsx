"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { ScheduleView } from "@/lib/probe/schedule";
import { formatUtc } from "@/lib/format";
import { apiFetch } from "../ui/api-fetch";
import { Input } from "@/components/ui/input";

// The scheduled re-probe of one model: off by default; on, the server queues a run weekly and
// when an endpoint appears or changes its quantization or tag, under a monthly cost cap. A run the
// cap (or anything else) kept from being queued shows here with its reason.

export function ProbeSchedule({ basePath }: { basePath: string }) {
  const queryClient = useQueryClient();
  const path = `${basePath}/schedule`;
  const schedule = useQuery({ queryKey: ["probe-schedule", path], queryFn: () => apiFetch<ScheduleView>(path), staleTime: 30_000 });
  const [enabled, setEnabled] = useState(false);
  const [cap, setCap] = useState("5.00");
  useEffect(() => {
    if (!schedule.data) return;
    setEnabled(schedule.data.enabled);
    setCap(schedule.data.monthlyCapUsd);
  }, [schedule.data]);
  const save = useMutation({
    mutationFn: (next: { enabled: boolean; monthlyCapUsd: string }) => apiFetch<ScheduleView>(path, { method: "PUT", body: JSON.stringify(next) }),
    onSuccess: (saved) => queryClient.setQueryData(["probe-schedule", path], saved),
  });
  const data = schedule.data;
  const dirty = data ? data.enabled !== enabled || data.monthlyCapUsd !== cap.trim() : false;

  return (
    <form
      aria-label="Scheduled re-probe"
      className="space-y-2 rounded-md border border-slate-200 p-4 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ enabled, monthlyCapUsd: cap.trim() });
      }}
    >
      <h3 className="font-medium text-slate-900">Scheduled re-probe</h3>
      <div className="flex flex-wrap items-end gap-4">
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} className="h-4 w-4 rounded border-slate-300" />
          Re-probe weekly and when an endpoint appears or changes its quantization or tag
        </label>
        <label className="flex items-center gap-2">
          <span className="text-slate-700">Monthly cap (USD)</span>
          <Input value={cap} onChange={(e) => setCap(e.target.value)} inputMode="decimal" className="w-24" />
        </label>
        <button type="submit" disabled={!data || !dirty || save.isPending} className="rounded-md border border-slate-300 px-3 py-1 hover:bg-slate-50 disabled:opacity-50">
          Save schedule
        </button>
      </div>
      {save.error && <p role="alert" className="text-red-700">{save.error.message}</p>}
      {data && (
        <p className="text-slate-600" data-testid="schedule-state">
          {data.enabled ? "On" : "Off"}
          {" · "}scheduled runs this month: ${data.monthSpentUsd} of the ${data.monthlyCapUsd} cap
          {data.lastQueuedAt && <> · last queued {formatUtc(data.lastQueuedAt)}</>}
          {data.pendingChange && <> · waiting for the active run to probe: {data.pendingChange}</>}
        </p>
      )}
      {data?.skipped && (
        <p role="status" aria-label="Skipped scheduled run" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950">
          {formatUtc(data.skipped.at)}: {data.skipped.reason}
        </p>
      )}
    </form>
  );
}
