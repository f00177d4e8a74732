"use client";

import dynamic from "next/dynamic";
import { SectionPlaceholder } from "../ui/section-placeholder";
import { WhenVisible } from "../ui/when-visible";
import type { HistorySectionProps } from "./history-section";

// The history section (five charts, the change log, and recharts with them) is loaded only when it
// scrolls into view: recharts alone is most of the model page's JavaScript, and the section sits
// below the fold. The placeholder keeps its place and height, so the page does not jump.

const Placeholder = () => (
  <SectionPlaceholder title="History" loading="Loading the charts…" testId="history-placeholder" minHeight="min-h-[60rem]" />
);

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
