import Decimal from "decimal.js";
import { describe, expect, it } from "vitest";
import { withinBudgetBounds } from "@/lib/budget/bounds";
import { compareDecimals } from "@/lib/decimal-compare";

// The browser-side exact comparison (lib/decimal-compare.ts) against decimal.js as the judge.

describe("compareDecimals", () => {
  it("orders prices exactly, where binary floats would not", () => {
    expect(compareDecimals("0.45", "0.45")).toBe(0);
    expect(compareDecimals("2.20", "2.2")).toBe(0);
    expect(compareDecimals("0.30", "0.1")).toBe(1);
    expect(compareDecimals("0.3", "0.30000000000000004")).toBe(-1); // 0.1 + 0.2 in floats
    expect(compareDecimals("12", "9.999")).toBe(1);
    expect(compareDecimals("1.5e-7", "0.00000015")).toBe(0);
    expect(compareDecimals("-0.01", "0")).toBe(-1);
    expect(compareDecimals("1000000000.01", "1000000000")).toBe(1);
  });

  it("agrees with decimal.js on 5,000 random pairs", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const amount = () => {
      const whole = Math.floor(random() * 10 ** Math.floor(random() * 6));
      const places = Math.floor(random() * 5);
      const fraction = places ? `.${String(Math.floor(random() * 10 ** places)).padStart(places, "0")}` : "";
      return `${whole}${fraction}`;
    };
    for (let i = 0; i < 5000; i++) {
      const [a, b] = [amount(), random() < 0.2 ? "" : amount()];
      const right = b || a; // a fifth of the pairs are equal values
      expect(compareDecimals(a, right), `${a} vs ${right}`).toBe(new Decimal(a).comparedTo(right));
    }
  });

  it("refuses what is not a number", () => {
    expect(() => compareDecimals("lots", "1")).toThrow('not a decimal number: "lots"');
    expect(() => compareDecimals(".", "1")).toThrow();
  });
});

describe("withinBudgetBounds", () => {
  it("takes $0 to $1,000,000,000 exactly", () => {
    expect(withinBudgetBounds("0")).toBe(true);
    expect(withinBudgetBounds("1000000000")).toBe(true);
    expect(withinBudgetBounds("1000000000.00")).toBe(true);
    expect(withinBudgetBounds("1000000000.01")).toBe(false);
    expect(withinBudgetBounds("9999999999.99")).toBe(false);
  });
});
