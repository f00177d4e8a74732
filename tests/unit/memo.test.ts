import { describe, expect, it } from "vitest";
import { clearMemo, memo } from "@/lib/queries/memo";

describe("memo", () => {
  it("shares one load among concurrent callers and loads afresh once it has settled", async () => {
    let loads = 0;
    const load = async () => ++loads;
    const [a, b] = await Promise.all([memo("k", load), memo("k", load)]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
    expect(await memo("k", load)).toBe(2);
  });
  it("reuses a settled answer within a time-to-live when asked to, until cleared", async () => {
    let loads = 0;
    const load = async () => ++loads;
    expect(await memo("t", load, 60_000)).toBe(1);
    expect(await memo("t", load, 60_000)).toBe(1);
    clearMemo();
    expect(await memo("t", load, 60_000)).toBe(2);
  });
  it("never keeps an error", async () => {
    await expect(memo("e", () => Promise.reject(new Error("down")), 60_000)).rejects.toThrow("down");
    expect(await memo("e", async () => "back", 60_000)).toBe("back");
  });
});
