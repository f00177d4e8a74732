import { createSerializer } from "nuqs/server";
import { describe, expect, it } from "vitest";
import { comparisonParsers, DEFAULT_COLUMNS, readComparisonState, toRuleSet } from "@/lib/view-state/comparison";

describe("comparison URL state", () => {
  it("gives the defaults for an empty link", () => {
    const { state, ignored } = readComparisonState({});
    expect(ignored).toEqual([]);
    expect(state).toEqual({
      xq: [], xp: [], ip: [], unk: true, upmin: 0, upw: "30m", st0: false, deg: true, xprobe: false, xdiff: true, xverify: false, maxin: null, maxout: null,
      sort: { column: "outputPricePerM", desc: false }, rsort: "price", hr: "24h", cols: DEFAULT_COLUMNS,
    });
  });

  it("reads the table's chosen columns, drops unknown ones and says so; an empty choice is kept", () => {
    const chosen = readComparisonState({ cols: "contextLength,tag,contextLength,bogus" });
    expect(chosen.state.cols).toEqual(["contextLength", "tag"]);
    expect(chosen.ignored).toEqual(["cols=bogus"]);
    expect(readComparisonState({ cols: "" }).state.cols).toEqual([]);
    // The default set is not written into links; a choice is.
    const serialize = createSerializer(comparisonParsers);
    expect(serialize({ cols: [...DEFAULT_COLUMNS] })).toBe("");
    expect(serialize({ cols: ["quantization", "outputPricePerM"] })).toBe("?cols=quantization,outputPricePerM");
  });

  it("reads every key of a full link", () => {
    const { state, ignored } = readComparisonState(
      new URLSearchParams("xq=int4,fp4&xp=fireworks&ip=chutes/int4&unk=false&upmin=95&upw=1d&st0=true&maxin=0.6&maxout=3&sort=uptime30m.desc&rsort=throughput"),
    );
    expect(ignored).toEqual([]);
    expect(toRuleSet(state)).toEqual({
      excludedQuantizations: ["int4", "fp4"], excludedTags: ["fireworks"], includedTags: ["chutes/int4"],
      acceptUnknown: false, minUptime: 95, uptimeWindow: "1d", requireStatusZero: true, excludeDegraded: true,
      maxInputPricePerM: "0.6", maxOutputPricePerM: "3",
    });
    expect(state.sort).toEqual({ column: "uptime30m", desc: true });
    expect(state.rsort).toBe("throughput");
  });

  it("ignores what it cannot read, keeps the rest, and says which parts", () => {
    const { state, ignored } = readComparisonState({
      xq: "int4,bogus", upmin: "150", upw: "7h", sort: "price", maxin: "-1", xp: "ok-tag,<script>",
    });
    expect(state.xq).toEqual(["int4"]);
    expect(state.upmin).toBe(0);
    expect(state.upw).toBe("30m");
    expect(state.xp).toEqual(["ok-tag"]);
    expect(ignored).toEqual(["xq=bogus", "xp=<script>", "upmin=150", "upw=7h", "maxin=-1", "sort=price"]);
  });

  it("reads a link without deg (an old link, or a saved view from before the rule) as degraded endpoints excluded", () => {
    expect(readComparisonState(new URLSearchParams("xq=int4")).state.deg).toBe(true);
    expect(toRuleSet(readComparisonState(new URLSearchParams("deg=false")).state).excludeDegraded).toBe(false);
    const serialize = createSerializer(comparisonParsers);
    // On is the default, so it stays out of links; off is written.
    expect(serialize(readComparisonState({}).state)).toBe("");
    expect(serialize(readComparisonState({ deg: "false" }).state)).toBe("?deg=false");
    expect(readComparisonState({ deg: "maybe" }).ignored).toEqual(["deg=maybe"]);
  });

  it("round-trips through the serializer the page uses for links", () => {
    const serialize = createSerializer(comparisonParsers);
    const query = "xq=int4,fp4,mxfp4,nvfp4&xp=fireworks&upmin=95";
    const { state } = readComparisonState(new URLSearchParams(query));
    expect(serialize(state)).toBe(`?${query}`);
  });
});
