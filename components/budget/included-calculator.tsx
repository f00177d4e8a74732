"use client";

import { useQueryStates } from "nuqs";
import { useMemo } from "react";
import { evaluateRules, type EndpointFacts } from "@/lib/rules/evaluate";
import { comparisonParsers, toRuleSet, type ComparisonState } from "@/lib/view-state/comparison";
import { CostCalculator } from "./cost-calculator";

/**
 * The calculator over the providers the comparison rules include. It reads the rules from the
 * URL the same way the comparison view does and runs the same engine, so when a rule is changed
 * on the page (a shallow URL update) the calculator follows at once.
 */
export function IncludedCostCalculator({ facts }: { facts: EndpointFacts[] }) {
  const [urlState] = useQueryStates(comparisonParsers);
  const state = urlState as ComparisonState;
  const included = useMemo(() => {
    const verdicts = evaluateRules(facts, toRuleSet(state));
    return facts
      .filter((_, i) => verdicts[i].included)
      .map((e) => ({ tag: e.tag, provider: e.provider, inputPricePerM: e.inputPricePerM, outputPricePerM: e.outputPricePerM }));
  }, [facts, state]);
  return <CostCalculator providers={included} />;
}
