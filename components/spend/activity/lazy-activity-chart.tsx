"use client";

import dynamic from "next/dynamic";
import { WhenVisible } from "@/components/ui/when-visible";
import type { ActivityChartProps } from "./activity-chart";

// The activity chart (recharts) sits below the fold of /spend: its code is fetched when it comes
// near the viewport, not with the page. The placeholder keeps its height, so the page does not jump.

const Placeholder = () => (
  <figure aria-label="Actual spend per day and provider" aria-busy="true" className="flex h-72 w-full items-center justify-center text-sm text-slate-500">
    Loading the chart…
  </figure>
);

const ActivityChart = dynamic(() => import("./activity-chart").then((m) => m.ActivityChart), { ssr: false, loading: Placeholder });

export function LazyActivityChart(props: ActivityChartProps) {
  return (
    <WhenVisible placeholder={<Placeholder />}>
      <ActivityChart {...props} />
    </WhenVisible>
  );
}
