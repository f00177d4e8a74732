"use client";

import dynamic from "next/dynamic";
import { PageSection } from "../models/page-sections";
import { WhenVisible } from "../ui/when-visible";
import type { FidelitySectionProps } from "./fidelity-section";

// The fidelity section (the probe's form, runs and verdict table) sits at the foot of the model
// page: its code is loaded only when it scrolls near the viewport or the link points at #fidelity,
// like the history section above it. The placeholder keeps the heading, so the page reads whole.

function Placeholder() {
  return (
    <div data-testid="fidelity-placeholder" className="min-h-[24rem] space-y-2 rounded-lg border border-slate-200 bg-white p-5">
      <h2 className="text-lg font-semibold tracking-tight">Fidelity</h2>
      <p role="status" className="text-sm text-slate-600">Loading the fidelity probe…</p>
    </div>
  );
}

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
