"use client";

import { useSearchParams } from "next/navigation";
import { useMemo } from "react";
import { evaluateRules, type EndpointFacts } from "@/lib/rules/evaluate";
import { readComparisonState, toRuleSet } from "@/lib/view-state/comparison";
import { CostCalculator } from "./cost-calculator";

/**
 * The calculator over the providers the comparison rules in the URL include. Evaluated in the
 * browser with the same rules engine as the page, so it follows rule changes made on the page
 * at once. When the page already has the included set, render CostCalculator with it directly.
 */
export function IncludedCostCalculator({ endpoints }: { endpoints: EndpointFacts[] }) {
  const searchParams = useSearchParams();
  const included = useMemo(() => {
    const rules = toRuleSet(readComparisonState(new URLSearchParams(searchParams.toString())).state);
    const verdicts = evaluateRules(endpoints, rules);
    return endpoints
      .filter((_, i) => verdicts[i].included)
      .map((e) => ({ tag: e.tag, provider: e.provider, inputPricePerM: e.inputPricePerM, outputPricePerM: e.outputPricePerM }));
  }, [endpoints, searchParams]);
  return <CostCalculator providers={included} />;
}
