"use client";

import dynamic from "next/dynamic";
import type { ComponentProps } from "react";
import { SectionPlaceholder } from "../ui/section-placeholder";
import { WhenVisible } from "../ui/when-visible";
import type { CostCalculator as Calculator } from "./cost-calculator";

// The data budget calculator sits below the provider table and the routing export: its code (the
// workload table, the per-provider costs) loads when it comes near the viewport or the link points
// at #budget, which keeps the model page's first load under its weight target. The placeholder
// has the section's heading and about its height, so the page does not jump.

type Props = ComponentProps<typeof Calculator>;

const Placeholder = () => (
  <SectionPlaceholder title="Data budget" loading="Loading the calculator…" testId="budget-placeholder" minHeight="min-h-[36rem]" boxed />
);

const CostCalculator = dynamic(() => import("./cost-calculator").then((m) => m.CostCalculator), {
  ssr: false,
  loading: Placeholder,
});

export function LazyCostCalculator(props: Props) {
  return (
    <WhenVisible placeholder={<Placeholder />} anchor="budget">
      <CostCalculator {...props} />
    </WhenVisible>
  );
}
