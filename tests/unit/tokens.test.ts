import { describe, expect, it } from "vitest";
import { compactTokens, formatTokens, parseTokens } from "@/lib/budget/tokens";

describe("parseTokens", () => {
  it.each([
    ["10M", 10_000_000],
    ["10m", 10_000_000],
    ["1.5k", 1_500],
    ["2500000", 2_500_000],
    ["2,500,000", 2_500_000],
    ["2_500_000", 2_500_000],
    [" 2.5 M ", 2_500_000],
    ["0", 0],
    [".5M", 500_000],
    ["1.666667M", 1_666_667],
    ["3B", 3_000_000_000],
  ])("%s is %d tokens", (input, tokens) => {
    expect(parseTokens(input)).toEqual({ ok: true, tokens });
  });

  it.each([
    ["", /Enter a token count/],
    ["   ", /Enter a token count/],
    ["-5", /cannot be negative/],
    ["-1M", /cannot be negative/],
    ["abc", /is not a token count/],
    ["10X", /is not a token count/],
    ["1,23", /is not a token count/],
    ["NaN", /is not a token count/],
    ["1.5", /whole number/],
    ["1.0000001k", /whole number/],
    ["20000B", /more than 10 trillion/],
    ["99999999999999999999", /more than 10 trillion/],
  ])("%j is rejected with a clear message", (input, message) => {
    const result = parseTokens(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });
});

describe("compactTokens / formatTokens", () => {
  it("round-trips through parseTokens", () => {
    for (const n of [0, 1, 999, 1_500, 10_000_000, 1_666_667, 2_500_000, 3_000_000_000]) {
      expect(parseTokens(compactTokens(n))).toEqual({ ok: true, tokens: n });
    }
    expect(compactTokens(10_000_000)).toBe("10M");
    expect(compactTokens(1_500)).toBe("1.5k");
    expect(compactTokens(1_666_667)).toBe("1666667");
  });
  it("formats for reading", () => {
    expect(formatTokens(60_000_000)).toBe("60M");
    expect(formatTokens(1_666_667)).toBe("1.67M");
    expect(formatTokens(950)).toBe("950");
  });
});
