import { describe, expect, it } from "vitest";
import { judgeGeneration } from "@/lib/provenance/judge";
import { buildTimeline, generationFacts, spanJudge, timelineBreaks, type SnapshotRow } from "@/lib/provenance/timeline";

// A hand-written morning: two endpoints, the view's rules revised at 10:30 to exclude int4, A
// degraded at 11:00, a probe at 09:30 (A equivalent) and one at 12:00 (B differs).

const at = (hhmm: string) => Date.parse(`2026-12-01T${hhmm}:00.000Z`);
const row = (tag: string, provider: string, quantization: string, status = 0): SnapshotRow => ({
  tag,
  provider,
  quantization,
  status,
  uptime5m: 99,
  uptime30m: 99,
  uptime1d: 99,
  inputPricePerM: "0.50",
  outputPricePerM: "2.50",
});
const timeline = buildTimeline({
  polls: [
    { at: at("10:00"), rows: [row("a/fp8", "Alpha", "fp8"), row("b/int4", "Beta", "int4")] },
    { at: at("11:00"), rows: [row("a/fp8", "Alpha", "fp8", -2), row("b/int4", "Beta", "int4")] },
  ],
  revisions: [
    { at: at("09:00"), query: "" },
    { at: at("10:30"), query: "xq=int4" },
  ],
  probes: [
    { at: at("09:30"), runId: 1, results: [{ tag: "a/fp8", verdict: "equivalent", reason: "within Δ" }] },
    { at: at("12:00"), runId: 2, results: [{ tag: "b/int4", verdict: "differs", reason: "differs by more than Δ" }] },
  ],
  known: [],
});
const VIEW = { slug: "abcdefgh", name: "Pipeline", modelId: "m/x" };
const judge = (provider: string, hhmm: string, tag: string | null = null) =>
  judgeGeneration(generationFacts({ provider, tag, modelId: "m/x", occurredAt: new Date(at(hhmm)) }, VIEW, timeline, 60));

describe("provenance over a timeline", () => {
  it("judges each generation by the snapshot, rules and verdicts of its time", () => {
    expect(judge("Alpha", "10:15")).toMatchObject({ class: "trusted", tag: "a/fp8", verdictBefore: "equivalent", verdictAfter: null, status: 0, quantization: "fp8" });
    // included then, but the 12:00 probe found it differs
    expect(judge("beta", "10:15")).toMatchObject({ class: "suspect", verdictBefore: null, verdictAfter: "differs" });
    // the 10:30 revision excluded int4; at 10:45 a pipeline may still hold the 10:29 allow-list
    const grace = judge("Beta", "10:45");
    expect(grace.class).toBe("suspect");
    expect(grace.reasons.slice(0, 2)).toEqual(["view “Pipeline” excluded b/int4: int4", "it was included until 2026-12-01T10:30:00.000Z, within the 60 min a pipeline may keep an old allow-list"]);
    expect(judge("Beta", "11:45")).toMatchObject({ class: "excluded", reasons: expect.arrayContaining(["view “Pipeline” excluded b/int4: int4"]) });
    expect(judge("Alpha", "11:10")).toMatchObject({ class: "suspect", status: -2 });
    expect(judge("Alpha", "12:30").class).toBe("excluded");
    expect(judge("Leaky", "10:15").class).toBe("excluded");
    expect(judge("Alpha", "10:15", "a/int4").class).toBe("excluded");
    // before the view's first revision, or before any snapshot
    expect(judge("Alpha", "08:00").reasons[0]).toMatch(/were not recorded/);
    expect(judge("Alpha", "09:45").reasons[0]).toMatch(/^no snapshot of m\/x was taken before/);
  });

  it("judges a time span once: the same judgement as each generation judged alone, at every minute and at each break ±1 ms", () => {
    const views = new Map([[7, { view: VIEW, timeline }], [8, { view: { ...VIEW, name: "Other" }, timeline: null }]]);
    const judgeOf = spanJudge(views, 60);
    const breaks = timelineBreaks(timeline, 60);
    const times: Array<number | null> = [null, ...breaks.flatMap((b) => [b - 1, b, b + 1])];
    for (let t = at("07:30"); t <= at("13:30"); t += 60_000) times.push(t);
    const lookups = [undefined, { state: "pending", attempts: 2, error: "404" }, { state: "not_found", attempts: 5, error: null }];
    const distinct = new Set<object>();
    let compared = 0;
    for (const viewKey of [7, 8, null]) {
      for (const provider of ["Alpha", "alpha", "Beta", "Leaky", null]) {
        for (const tag of [null, "a/fp8", "a/int4"]) {
          for (const modelId of ["m/x", "m/y"]) {
            for (const lookup of provider === null ? lookups : [undefined]) {
              for (const t of times) {
                const record = { provider, tag, modelId, occurredAt: t === null ? null : new Date(t) };
                const v = viewKey === null ? undefined : views.get(viewKey);
                const facts = generationFacts(record, v?.view ?? null, v?.timeline ?? null, 60);
                if (lookup) facts.lookup = lookup;
                const memo = judgeOf({ ...record, viewKey, lookup });
                expect(memo).toEqual(judgeGeneration(facts));
                distinct.add(memo);
                compared++;
              }
            }
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(10_000);
    // A few hundred spans and record kinds, not one judgement per record.
    expect(distinct.size).toBeLessThan(compared / 10);
  });
});
