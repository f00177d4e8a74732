import { describe, expect, it } from "vitest";
import { BUDGET_BOUNDS, readBudgetAmount } from "@/lib/budget/amount";
import { parseBudget } from "@/lib/budget/cost";

describe("budget amounts", () => {
  it.each([
    ["0", "0"],
    ["100", "100"],
    ["$250.50", "250.5"],
    ["1,000,000,000", "1000000000"],
    ["$1,000,000,000.00", "1000000000"],
    [" 42 ", "42"],
  ])("accepts %s", (input, value) => {
    const read = readBudgetAmount(input);
    expect(read.ok && read.amount.toString()).toBe(value);
    expect(parseBudget(input)?.toString()).toBe(value);
  });

  it.each([
    ["", /^Enter a budget/],
    ["-5", /cannot be negative/],
    ["lots", /“lots” is not an amount/],
    ["1.234", /at most 2 decimals/],
    ["1000000000.01", /^Over the limit/],
    ["99999999999", /^Over the limit/],
  ])("refuses %s and says the real bounds", (input, reason) => {
    const read = readBudgetAmount(input);
    expect(read.ok).toBe(false);
    if (!read.ok) {
      expect(read.message).toMatch(reason);
      expect(read.message).toContain(BUDGET_BOUNDS);
    }
    expect(parseBudget(input)).toBeNull();
  });

  it("states bounds that match what it accepts", () => {
    expect(BUDGET_BOUNDS).toContain("$0");
    expect(BUDGET_BOUNDS).toContain("$1,000,000,000");
    expect(readBudgetAmount("0").ok).toBe(true);
    expect(readBudgetAmount("1000000000").ok).toBe(true);
  });
});
