import { describe, expect, it } from "vitest";
import { diffSnapshots, type EndpointState } from "@/lib/history/changes";

const ep = (tag: string, over: Partial<EndpointState> = {}): EndpointState => ({
  tag,
  provider: tag.split("/")[0].toUpperCase(),
  quantization: "fp8",
  status: 0,
  inputPricePerM: "0.45",
  outputPricePerM: "2.25",
  uptime30m: 99.5,
  ...over,
});

describe("diffSnapshots", () => {
  it("reports nothing on a model's first snapshot or when nothing changed", () => {
    expect(diffSnapshots(null, [ep("a")], 95)).toEqual([]);
    // Equal decimals written differently are the same price; small uptime moves are not changes.
    expect(diffSnapshots([ep("a", { inputPricePerM: "0.450000" })], [ep("a", { uptime30m: 98 })], 95)).toEqual([]);
  });

  it("reports an added and a removed provider", () => {
    const changes = diffSnapshots([ep("a"), ep("b")], [ep("a"), ep("c", { quantization: "fp4" })], 95);
    expect(changes).toEqual([
      { tag: "c", provider: "C", kind: "added", before: null, after: "fp4" },
      { tag: "b", provider: "B", kind: "removed", before: "fp8", after: null },
    ]);
  });

  it("reports a provider whose endpoint changed tag as one tag change", () => {
    const changes = diffSnapshots([ep("a"), ep("b/fp4")], [ep("a"), ep("b/fp8")], 95);
    expect(changes).toEqual([{ tag: "b/fp8", provider: "B", kind: "tag", before: "b/fp4", after: "b/fp8" }]);
  });

  it("reports price, quantization and status changes with before and after", () => {
    const changes = diffSnapshots(
      [ep("a"), ep("b"), ep("c")],
      [ep("a", { outputPricePerM: "2.5" }), ep("b", { quantization: "fp4" }), ep("c", { status: -2 })],
      95,
    );
    expect(changes).toEqual([
      { tag: "a", provider: "A", kind: "price", before: "0.45 / 2.25", after: "0.45 / 2.50" },
      { tag: "b", provider: "B", kind: "quantization", before: "fp8", after: "fp4" },
      { tag: "c", provider: "C", kind: "status", before: "0", after: "-2" },
    ]);
  });

  it("reports uptime only when it crosses the threshold, both ways", () => {
    expect(diffSnapshots([ep("a", { uptime30m: 96 })], [ep("a", { uptime30m: 94.9 })], 95)).toEqual([
      { tag: "a", provider: "A", kind: "uptime", before: "96", after: "94.9" },
    ]);
    expect(diffSnapshots([ep("a", { uptime30m: 80 })], [ep("a", { uptime30m: 95 })], 95)).toHaveLength(1);
    expect(diffSnapshots([ep("a", { uptime30m: 80 })], [ep("a", { uptime30m: 90 })], 95)).toEqual([]);
    expect(diffSnapshots([ep("a", { uptime30m: null })], [ep("a", { uptime30m: 10 })], 95)).toEqual([]);
  });

  it("a price appearing where there was none is a change", () => {
    expect(diffSnapshots([ep("a", { inputPricePerM: null })], [ep("a")], 95)).toEqual([
      { tag: "a", provider: "A", kind: "price", before: "— / 2.25", after: "0.45 / 2.25" },
    ]);
  });
});
