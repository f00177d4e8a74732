import { describe, expect, it } from "vitest";
import { clearMemo, MAX_ENTRIES, memo, memoSize, sharedReads } from "@/lib/queries/memo";

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
  it("drops a read still in flight when cleared: an answer begun before a write is never reused", async () => {
    let release!: (v: string) => void;
    const before = memo("w", () => new Promise<string>((r) => (release = r)), 60_000);
    clearMemo(); // a write lands while the read runs
    release("before the write");
    expect(await before).toBe("before the write"); // its own caller still gets an answer
    expect(await memo("w", async () => "after the write", 60_000)).toBe("after the write");
  });
  it("holds at most MAX_ENTRIES answers, dropping the oldest", async () => {
    clearMemo();
    for (let i = 0; i < MAX_ENTRIES + 25; i++) await memo(`k${i}`, async () => i, 60_000);
    expect(memoSize()).toBe(MAX_ENTRIES);
    let reloaded = false;
    await memo("k0", async () => ((reloaded = true), 0), 60_000);
    expect(reloaded).toBe(true);
    expect(await memo(`k${MAX_ENTRIES + 24}`, async () => -1, 60_000)).toBe(MAX_ENTRIES + 24);
  });
  it("never keeps an error", async () => {
    await expect(memo("e", () => Promise.reject(new Error("down")), 60_000)).rejects.toThrow("down");
    expect(await memo("e", async () => "back", 60_000)).toBe("back");
  });
  it("a weighed store keeps under its weight, sweeps answers past their time, and is emptied by clearMemo too", async () => {
    const pages = sharedReads("test-pages", { maxEntries: 10, maxWeight: 100, weigh: (v) => (v as string).length });
    for (const key of ["a", "b", "c"]) await pages.read(key, async () => key.repeat(40), 60_000);
    expect(pages.size).toBe(2); // 120 > 100: the oldest ("a") went
    let reloaded = false;
    await pages.read("a", async () => ((reloaded = true), "a"), 60_000);
    expect(reloaded).toBe(true);

    await pages.read("short", async () => "s", 1);
    await new Promise((r) => setTimeout(r, 5));
    await pages.read("next", async () => "n", 60_000); // a new answer sweeps the expired one
    let swept = false;
    await pages.read("short", async () => ((swept = true), "s"), 60_000);
    expect(swept).toBe(true);

    expect(sharedReads("test-pages", { maxEntries: 1 })).toBe(pages); // one store per name
    clearMemo();
    expect(pages.size).toBe(0);
  });
});
