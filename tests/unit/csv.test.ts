import { describe, expect, it } from "vitest";
import { toCsv } from "@/lib/csv";

describe("toCsv", () => {
  it("quotes what needs quoting and leaves numbers and empty cells plain", () => {
    expect(toCsv(["a", "b", "c"], [["Moonshot AI", 0.45, null], ['say "hi", ok', "x\ny", "plain"]])).toBe(
      'a,b,c\r\nMoonshot AI,0.45,\r\n"say ""hi"", ok","x\ny",plain\r\n',
    );
  });

  it("defuses spreadsheet formulas", () => {
    expect(toCsv(["p"], [["=HYPERLINK(1)"], ["-5"]])).toBe("p\r\n'=HYPERLINK(1)\r\n'-5\r\n");
    expect(toCsv(["n"], [[-5]])).toBe("n\r\n-5\r\n");
  });
});
