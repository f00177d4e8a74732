import { describe, expect, it } from "vitest";
import { budgetParsers, DEFAULT_PLAN, ignoredBudgetKeys, parseAsDatasets } from "@/lib/view-state/budget";

describe("calculator URL state", () => {
  it("writes the default plan compactly and reads it back", () => {
    const text = parseAsDatasets.serialize(DEFAULT_PLAN);
    expect(text).toBe("B3:1666667:10M,B4:1666667:10M,B5:1666667:10M,B6:1666667:10M,B7:1666666:10M,B8:1666666:10M");
    expect(parseAsDatasets.parse(text)).toEqual(DEFAULT_PLAN);
  });

  it("accepts token shorthand and falls back on anything malformed", () => {
    expect(parseAsDatasets.parse("Chat:1.5k:2,500")).toBeNull(); // a comma separates rows
    expect(parseAsDatasets.parse("Chat:1.5k:2500000")).toEqual([{ name: "Chat", inputTokens: 1500, outputTokens: 2_500_000 }]);
    for (const bad of ["", "B3", "B3:1M", "B3:-1M:1M", "B3:x:1M", ":1M:1M", "B3:1M:1M:1M", "<b>:1M:1M"]) {
      expect(parseAsDatasets.parse(bad)).toBeNull();
    }
    expect(budgetParsers.ds.parseServerSide("nonsense")).toEqual(DEFAULT_PLAN);
    expect(budgetParsers.budget.parseServerSide("250")).toBe("250");
    // No budget in the link (or one that cannot be read): none, so the calculator uses the stored one.
    expect(budgetParsers.budget.parseServerSide("-4")).toBeNull();
    expect(budgetParsers.budget.parseServerSide(undefined)).toBeNull();
    expect(budgetParsers.budget.parseServerSide("1000000000")).toBe("1000000000");
    expect(budgetParsers.budget.parseServerSide("1000000000.01")).toBeNull();
    expect(budgetParsers.budget.parseServerSide("0")).toBe("0");
  });

  it("names the keys it ignored", () => {
    const params = new URLSearchParams("budget=lots&ds=B3:1M:1M");
    expect(ignoredBudgetKeys((k) => params.get(k))).toEqual(["budget"]);
    expect(ignoredBudgetKeys(() => null)).toEqual([]);
  });
});
