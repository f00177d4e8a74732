"use client";

import dynamic from "next/dynamic";
import { WhenVisible } from "../ui/when-visible";
import type { HistorySectionProps } from "./history-section";

// The history section (five charts, the change log, and recharts with them) is loaded only when it
// scrolls into view: recharts alone is most of the model page's JavaScript, and the section sits
// below the fold. The placeholder keeps its place and height, so the page does not jump.

function Placeholder() {
  return (
    <div data-testid="history-placeholder" className="min-h-[60rem] space-y-2">
      <h2 className="text-lg font-semibold tracking-tight">History</h2>
      <p role="status" className="text-sm text-slate-600">Loading the charts…</p>
    </div>
  );
}

const HistorySection = dynamic(() => import("./history-section").then((m) => m.HistorySection), {
  ssr: false,
  loading: Placeholder,
});

export function LazyHistorySection(props: HistorySectionProps) {
  return (
    <WhenVisible placeholder={<Placeholder />} anchor="history">
      <HistorySection {...props} />
    </WhenVisible>
  );
}
