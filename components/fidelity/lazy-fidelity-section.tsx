"use client";

import dynamic from "next/dynamic";
import { PageSection } from "../models/page-sections";
import { SectionPlaceholder } from "../ui/section-placeholder";
import { WhenVisible } from "../ui/when-visible";
import type { FidelitySectionProps } from "./fidelity-section";

// The fidelity section (the probe's form, runs and verdict table) sits at the foot of the model
// page: its code is loaded only when it scrolls near the viewport or the link points at #fidelity,
// like the history section above it. The placeholder keeps the heading, so the page reads whole.

const Placeholder = () => (
  <SectionPlaceholder title="Fidelity" loading="Loading the fidelity probe…" testId="fidelity-placeholder" minHeight="min-h-[24rem]" boxed />
);

const FidelitySection = dynamic(() => import("./fidelity-section").then((m) => m.FidelitySection), {
  ssr: false,
  loading: Placeholder,
});

export function LazyFidelitySection(props: FidelitySectionProps) {
  return (
    <PageSection id="fidelity">
      <WhenVisible placeholder={<Placeholder />} anchor="fidelity">
        <FidelitySection {...props} />
      </WhenVisible>
    </PageSection>
  );
}
