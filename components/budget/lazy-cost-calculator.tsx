"use client";

import dynamic from "next/dynamic";
import type { ComponentProps } from "react";
import { WhenVisible } from "../ui/when-visible";
import type { CostCalculator as Calculator } from "./cost-calculator";

// The data budget calculator sits below the provider table and the routing export: its code (the
// workload table, the per-provider costs) loads when it comes near the viewport or the link points
// at #budget, which keeps the model page's first load under its weight target. The placeholder
// has the section's heading and about its height, so the page does not jump.

type Props = ComponentProps<typeof Calculator>;

function Placeholder() {
  return (
    <div data-testid="budget-placeholder" className="min-h-[36rem] space-y-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <h2 className="text-lg font-semibold">Data budget</h2>
      <p role="status" className="text-sm text-slate-600">Loading the calculator…</p>
    </div>
  );
}

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
