import { describe, expect, it } from "vitest";
import { planCostToFinish, type DatasetUsage } from "@/lib/usage/queries";

// What the rest of the plan costs at the rate paid so far: the run-out alert compares it with
// what is left of the budget.

const row = (dataset: string, outputTokens: string, costUsd: string, plannedOut: number | null): DatasetUsage => ({
  dataset,
  requests: 1,
  inputTokens: "0",
  outputTokens,
  costUsd,
  planned: plannedOut === null ? null : { inputTokens: 0, outputTokens: plannedOut },
  outputDonePercent: null,
  projectedCostUsd: null,
});

describe("the plan's cost to finish", () => {
  it("is unknown before any output is paid for", () => {
    expect(planCostToFinish([row("B3", "0", "0.00", 10_000_000)])).toBeNull();
  });

  it("prices each dataset's remaining output at its own rate, and unstarted ones at the overall rate", () => {
    // B3: 2M done for $4 ($2/M), 8M left → $16; B4: 1M done for $1 ($1/M), 9M left → $9;
    // B5 not started: overall ($5 for 3M plus the unplanned $1 for 1M = $6 for 4M, $1.50/M) × 10M → $15.
    const usage = [row("B3", "2000000", "4.00", 10_000_000), row("B4", "1000000", "1.00", 10_000_000), row("B5", "0", "0.00", 10_000_000), row("(no dataset)", "1000000", "1.00", null)];
    expect(planCostToFinish(usage)).toEqual({ toFinishUsd: "40.00", outputTokensLeft: "27000000" });
  });

  it("a dataset past its plan adds nothing", () => {
    expect(planCostToFinish([row("B3", "12000000", "12.00", 10_000_000)])).toEqual({ toFinishUsd: "0.00", outputTokensLeft: "0" });
  });
});
