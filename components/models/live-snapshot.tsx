"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { formatAgo } from "@/lib/format";
import type { LatestPoll } from "@/lib/queries/latest-poll";
import { isNewerSnapshot, snapshotVersion, type SnapshotIdentity } from "@/lib/snapshot-version";
import { apiFetch, modelApiPath } from "../ui/api-fetch";

// Keeps a model page on the newest data without a reload. The page is rendered for one snapshot
// and one set of probe verdicts; this watches the model's latest poll and latest completed probe
// and, when newer ones exist (a scheduled poll, a cron's POST /api/poll, "Poll now" in another
// tab, a probe run that finished here or anywhere), refreshes the server-rendered parts: the
// table, its reasons, "N of M included", the routing export (router.refresh keeps the page's
// client state). The client fetches (charts, change log) key on
// the rendered snapshot's version, so they refetch when, and only when, the server parts move.

/** How often an open page asks whether a newer snapshot exists. */
export const WATCH_INTERVAL_MS = 10_000;

type Scheduler = LatestPoll["scheduler"];

interface LiveSnapshotValue {
  version: string;
  polledAt: string | null;
  scheduler: Scheduler;
  /** The server's clock when it rendered, so the first render says the same on both sides. */
  renderedAt: number;
}

const LiveSnapshotContext = createContext<LiveSnapshotValue | null>(null);

/** The version of the snapshot the page shows: part of every client fetch's query key. */
export function useSnapshotVersion(): string {
  return useContext(LiveSnapshotContext)?.version ?? "unknown";
}

interface Props extends SnapshotIdentity {
  modelId: string;
  scheduler: Scheduler;
  /** The server's clock when it rendered, so the first render says the same on both sides. */
  renderedAt: number;
  children: ReactNode;
}

export function LiveSnapshot({ modelId, polledAt, failedAt, verdictsAt, scheduler, renderedAt, children }: Props) {
  const router = useRouter();
  const shown: SnapshotIdentity = { polledAt, failedAt, verdictsAt };
  const version = snapshotVersion(shown);
  const latest = useQuery({
    queryKey: ["latest-poll", modelId],
    queryFn: () => apiFetch<LatestPoll>(`${modelApiPath(modelId)}/latest-poll`),
    refetchInterval: WATCH_INTERVAL_MS,
    staleTime: 0,
  });

  // One refresh per newer snapshot seen, however many answers say so while it is under way.
  const refreshedFor = useRef<string | null>(null);
  const candidate = latest.data;
  useEffect(() => {
    if (!candidate || !isNewerSnapshot(candidate, { polledAt, failedAt, verdictsAt })) return;
    if (refreshedFor.current === candidate.version) return;
    refreshedFor.current = candidate.version;
    router.refresh();
  }, [candidate, polledAt, failedAt, verdictsAt, router]);

  // Memoised: the charts and change log read the version and must not re-render for nothing.
  const currentScheduler = candidate?.scheduler ?? scheduler;
  const value = useMemo<LiveSnapshotValue>(
    () => ({ version, polledAt, scheduler: currentScheduler, renderedAt }),
    [version, polledAt, currentScheduler, renderedAt],
  );
  return <LiveSnapshotContext.Provider value={value}>{children}</LiveSnapshotContext.Provider>;
}

/** The clock, read every `everyMs` after the first render (which uses the server's). */
function useNow(initial: number, everyMs: number): number {
  const [now, setNow] = useState(initial);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** "polled 2 min ago · next poll in about 3 min", kept current while the page is open. */
export function PollFreshness() {
  const live = useContext(LiveSnapshotContext);
  // The clock ticks here only, so only this line re-renders as the minutes pass.
  const now = useNow(live?.renderedAt ?? 0, 10_000);
  if (!live) return null;
  const { polledAt, scheduler } = live;
  return (
    <span data-testid="poll-freshness">
      {polledAt && (
        <>
          polled <time dateTime={polledAt}>{formatAgo(polledAt, now)}</time>
          {" · "}
        </>
      )}
      {nextPollText(scheduler, now)}
    </span>
  );
}

function nextPollText({ intervalSeconds, nextPollAt }: Scheduler, now: number): string {
  if (intervalSeconds === 0) return "scheduler off (POLL_INTERVAL_SECONDS=0): polls run on “Poll now” or POST /api/poll";
  const every = intervalSeconds % 60 === 0 ? `${intervalSeconds / 60} min` : `${intervalSeconds} s`;
  if (!nextPollAt) return `polled every ${every}`;
  const seconds = Math.round((Date.parse(nextPollAt) - now) / 1000);
  const due = seconds <= 0 ? "due now" : seconds < 60 ? "in less than a minute" : `in about ${Math.round(seconds / 60)} min`;
  return `next poll ${due} (every ${every})`;
}
