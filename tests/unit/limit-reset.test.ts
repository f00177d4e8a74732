import { describe, expect, it } from "vitest";
import { perMonthUsd, resetWindow } from "@/lib/keys/limit-reset";

describe("what a limit that resets means per month (30 days)", () => {
  it("multiplies by the windows in 30 days", () => {
    expect(perMonthUsd("100.00", "daily")).toBe("3000.00"); // 100 × 30
    expect(perMonthUsd("5", "daily")).toBe("150.00"); // 5 × 30
    expect(perMonthUsd("100.00", "weekly")).toBe("428.57"); // 100 × 30 / 7 = 428.571…
    expect(perMonthUsd("70", "weekly")).toBe("300.00"); // 70 × 30 / 7
    expect(perMonthUsd("100.00", "monthly")).toBe("100.00");
  });

  it("says nothing for a reset OpenRouter does not document", () => {
    expect(perMonthUsd("100", "yearly")).toBeNull();
    expect(resetWindow("yearly")).toBeNull();
    expect([resetWindow("daily"), resetWindow("weekly"), resetWindow("monthly")]).toEqual(["day", "week", "month"]);
  });
});
