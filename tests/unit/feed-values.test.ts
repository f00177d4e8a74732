import { describe, expect, it } from "vitest";
import { showValue } from "@/lib/alerts/feed-values";

// What a notification and a feed entry say for an event's old and new values: words, not field names.

describe("an event's value for people", () => {
  it("says a price pair in dollars per million, input then output", () => {
    expect(showValue({ inputPricePerM: "0.75", outputPricePerM: "3.75" })).toBe("input $0.75/M, output $3.75/M");
    expect(showValue({ inputPricePerM: null, outputPricePerM: "2.00" })).toBe("input not listed, output $2.00/M");
  });

  it("says yes and no for a flag, and keeps other values as they are", () => {
    expect(showValue({ included: true, verdict: "differs" })).toBe("included yes, verdict differs");
    expect(showValue({ included: false, verdict: null })).toBe("included no, verdict none");
    expect(showValue("0.80")).toBe("0.80");
    expect(showValue(null)).toBe("none");
    expect(showValue(["a", "b"])).toBe('["a","b"]');
  });
});
