import Decimal from "decimal.js";
import { describe, expect, it } from "vitest";
import { evaluateKeyLimit, evaluateSpend, type BudgetSettings, type SpendFigures } from "@/lib/alerts/budget-conditions";
import { evaluateView, routingDiff, uptimeRule, type ViewAlertState, type ViewConditions } from "@/lib/alerts/view-conditions";
import { compare, type ComparisonData } from "@/lib/queries/comparison";
import type { ProviderRow } from "@/lib/queries/providers";

// The alert conditions, decided on plain data: what each change says, once.

const ALL: ViewConditions = { includedSet: true, routing: true, endpointChange: true, uptime: true, probeVerdict: true, uptimeThreshold: null };

function row(tag: string, over: Partial<ProviderRow> = {}): ProviderRow {
  return {
    tag, provider: tag[0].toUpperCase() + tag.slice(1), quantization: "fp8", inputPricePerM: "0.50", outputPricePerM: "2.00", cacheReadPricePerM: null,
    status: 0, uptime5m: 99, uptime30m: 99, uptime1d: 99, latencyP50Ms: 500, throughputP50: 40, contextLength: 1000, maxCompletionTokens: null,
    supportedParameters: [], firstSeenAt: "2026-11-01T00:00:00.000Z", ...over,
  };
}

let pollNo = 0;
function data(rows: ProviderRow[], probes: Array<{ tag: string; verdict: string }> = [], demo = false): ComparisonData {
  pollNo++;
  return {
    snapshot: { model: { id: "a/b", name: "A B" }, polledAt: new Date(Date.UTC(2026, 10, 1, 0, pollNo)).toISOString(), demo, lastFailure: null, endpoints: rows },
    known: [],
    probes: probes.map((p) => ({ ...p, reason: "", runId: 1, finishedAt: "2026-11-01T00:00:00.000Z", statistic: null, noiseFloor: null, pValue: null, method: null })),
  };
}

/** Evaluates a sequence of snapshots under one query; the events of each. */
function run(snapshots: ComparisonData[], query = "", conditions = ALL) {
  let state: ViewAlertState | null = null;
  return snapshots.map((d) => {
    const out = evaluateView(state, compare(d, new URLSearchParams(query)), conditions, { name: "V" });
    state = JSON.parse(JSON.stringify(out.state)); // stored as JSON, as the database keeps it
    return out.events;
  });
}

describe("view alert conditions", () => {
  it("the first evaluation records and says nothing; the same answer again says nothing", () => {
    const [first, second] = run([data([row("alpha", { uptime30m: 10 })]), data([row("alpha")])]);
    expect(first).toEqual([]);
    expect(second).toEqual([]);
  });

  it("a price change is one endpoint event with exact decimal strings", () => {
    const [, events] = run([data([row("alpha")]), data([row("alpha", { inputPricePerM: "0.55" })])]);
    expect(events).toEqual([
      {
        kind: "endpoint",
        summary: "Alpha in “V” changed its price ($/M input / output): 0.50 / 2.00 → 0.55 / 2.00",
        data: { tag: "alpha", provider: "Alpha", change: "price", old: { inputPricePerM: "0.50", outputPricePerM: "2.00" }, new: { inputPricePerM: "0.55", outputPricePerM: "2.00" } },
      },
    ]);
  });

  it("a change of an endpoint the view excludes says nothing", () => {
    const [, events] = run([data([row("alpha"), row("beta")]), data([row("alpha"), row("beta", { quantization: "fp4" })])], "xp=beta");
    expect(events).toEqual([]);
  });

  it("uptime: hysteresis of two polls each way, one event each", () => {
    const up = (u: number) => data([row("alpha", { uptime30m: u })]);
    const events = run([up(99), up(90), up(99), up(90), up(91), up(80), up(96), up(90), up(97), up(98), up(99)]);
    expect(events.map((e) => e.map((x) => x.kind).join())).toEqual(["", "", "", "", "uptime-down", "", "", "", "", "uptime-recovered", ""]);
    expect(events[4][0].data).toMatchObject({ polls: [90, 91], threshold: 95 });
    expect(events[9][0].data).toMatchObject({ polls: [97, 98], old: "down", new: "up" });
  });

  it("the uptime threshold: the condition's own, else the view's uptime rule, else 95", () => {
    const c = compare(data([row("alpha")]), new URLSearchParams("upmin=90&upw=1d"));
    expect(uptimeRule({ uptimeThreshold: null }, c)).toEqual({ threshold: 90, window: "1d" });
    expect(uptimeRule({ uptimeThreshold: 80 }, c)).toEqual({ threshold: 80, window: "1d" });
    expect(uptimeRule({ uptimeThreshold: null }, compare(data([row("alpha")]), new URLSearchParams()))).toEqual({ threshold: 95, window: "30m" });
  });

  it("an endpoint entering the included set is named with its verdict; the routing export diff lists it", () => {
    const [, events] = run([data([row("alpha"), row("beta", { status: -2 })]), data([row("alpha"), row("beta")])]);
    expect(events.map((e) => e.kind)).toEqual(["included", "routing", "endpoint"]);
    expect(events[0]).toMatchObject({ summary: "Beta entered the included set of “V”: Included", data: { change: "entered", reason: "Included" } });
    expect(events[1].data).toMatchObject({ diff: [{ path: "included", added: ["beta"] }, { path: "provider.only", added: ["beta"] }], diffText: ["included: +beta", "provider.only: +beta"] });
  });

  it("a probe verdict change of an included endpoint is one event; a first verdict is not a change", () => {
    const rows = [row("alpha")];
    const events = run([data(rows), data(rows, [{ tag: "alpha", verdict: "matches" }]), data(rows, [{ tag: "alpha", verdict: "differs" }])]);
    expect(events[1]).toEqual([]);
    // differs is excluded by default (xdiff), so alpha also leaves the included set and the routing export.
    expect(events[2].map((e) => e.kind)).toEqual(["included", "routing", "probe"]);
    expect(events[2][2]).toMatchObject({ kind: "probe", data: { tag: "alpha", old: "matches", new: "differs" } });
  });

  it("a probe verdict is remembered across a run that did not probe the endpoint", () => {
    const rows = [row("alpha"), row("beta")];
    const events = run([
      data(rows),
      data(rows, [{ tag: "alpha", verdict: "matches" }]),
      data(rows, [{ tag: "beta", verdict: "matches" }]),
      data(rows, [{ tag: "alpha", verdict: "differs" }]),
    ]);
    expect(events.slice(1, 3)).toEqual([[], []]);
    expect(events[3].filter((e) => e.kind === "probe")).toMatchObject([{ kind: "probe", data: { tag: "alpha", old: "matches", new: "differs" } }]);
  });

  it("probe alerts follow moves between decisive verdicts: cannot tell flapping is no news, an old matches read as equivalent is no change", () => {
    const rows = [row("alpha")];
    const verdicts = ["matches", "equivalent", "cannot tell", "equivalent", "cannot tell", "cannot tell", "differs", "cannot tell", "equivalent"];
    const events = run([data(rows), ...verdicts.map((verdict) => data(rows, [{ tag: "alpha", verdict }]))]);
    const probeEvents = events.map((list) => list.filter((e) => e.kind === "probe").map((e) => `${e.data.old} → ${e.data.new}`));
    expect(probeEvents).toEqual([[], [], [], [], [], [], [], ["equivalent → differs"], [], ["differs → equivalent"]]);
  });

  it("conditions turned off say nothing; demo data is marked", () => {
    const snaps = () => [data([row("alpha")], [], true), data([row("alpha", { quantization: "fp4" })], [], true)];
    expect(run(snaps(), "", { ...ALL, endpointChange: false })[1]).toEqual([]);
    expect(run(snaps())[1][0].data).toMatchObject({ demo: true });
  });

  it("routing diff: a status change and scalar changes", () => {
    expect(routingDiff({ status: 200, body: { provider: { sort: "price", only: ["a"] } } }, { status: 422, error: "none" })).toEqual([
      { path: "error", old: null, new: "none" },
      { path: "provider.only", removed: ["a"] },
      { path: "provider.sort", old: "price", new: null },
      { path: "status", old: 200, new: 422 },
    ]);
  });
});

describe("budget alert conditions", () => {
  const settings: BudgetSettings = { spendSteps: true, runOut: true, keyLimitBelowUsd: "10" };
  const figures = (spent: string, runOut: SpendFigures["runOut"] = null, plan: SpendFigures["plan"] = null): SpendFigures => ({
    budget: { amountUsd: "100.00", startAt: "2026-11-01T00:00:00.000Z" }, spent, remaining: new Decimal(100).minus(spent).toFixed(2), burn: null, runOut, plan, demo: false,
  });

  it("each step once, several at once when spend jumps; the first evaluation only records", () => {
    let state = evaluateSpend(null, figures("55.00"), settings).state;
    expect(state.steps).toEqual({ "100.00@2026-11-01T00:00:00.000Z": [50] });
    const steps: number[][] = [];
    for (const spent of ["60.00", "79.99", "100.00", "120.00"]) {
      const out = evaluateSpend(state, figures(spent), settings);
      steps.push(out.events.map((e) => (e.data as { step: number }).step));
      state = out.state;
    }
    expect(steps).toEqual([[], [], [80, 100], []]);
  });

  it("the run-out is said when the budget runs out before the plan is covered, not again while it stays so", () => {
    const soon = { at: "2026-12-01T00:00:00.000Z", hoursLeft: "3.00" };
    const costly = { toFinishUsd: "120.00", outputTokensLeft: "50000000" }; // more than the $10 left
    const cheap = { toFinishUsd: "4.50", outputTokensLeft: "1000000" }; // the $10 left covers it
    let { state } = evaluateSpend(null, figures("90.00"), settings);
    const said: number[] = [];
    const steps: Array<[SpendFigures["runOut"], SpendFigures["plan"]]> = [
      [null, costly], // no burn: nothing runs out
      [soon, null], // a run-out, but no rate paid yet (no usage imported): not judged
      [soon, cheap], // runs out, but after the plan is covered
      [soon, costly], // before the plan is covered: said
      [{ at: "2026-12-01T01:00:00.000Z", hoursLeft: "2.00" }, costly], // still so: not again
      [soon, cheap], // no longer so
      [{ at: "exhausted" }, null], // used up with the plan unknown: said
    ];
    for (const [runOut, plan] of steps) {
      const out = evaluateSpend(state, figures("90.00", runOut, plan), settings);
      said.push(out.events.length);
      state = out.state;
    }
    expect(said).toEqual([0, 0, 0, 1, 0, 0, 1]);
    const { events } = evaluateSpend({ ...state, runOut: false }, figures("90.00", soon, costly), settings);
    expect(events[0].summary).toBe(
      "At the current burn rate the $100.00 budget runs out at 2026-12-01T00:00:00.000Z (in 3.00 h), before the plan is covered: the rest of the plan costs about $120.00 at the rate paid so far, and $10.00 is left",
    );
    expect(events[0].data).toMatchObject({ planToFinishUsd: "120.00", planOutputTokensLeft: "50000000", remainingUsd: "10.00" });
  });

  it("the key's limit_remaining below the amount: once, again only after it rose above", () => {
    let state = evaluateKeyLimit(null, { name: "k", limitRemaining: "5", demo: false }, settings).state; // first: records
    const said: number[] = [];
    for (const left of ["4", "20", "9.99", "9"]) {
      const out = evaluateKeyLimit(state, { name: "k", limitRemaining: left, demo: false }, settings);
      said.push(out.events.length);
      state = out.state;
    }
    expect(said).toEqual([0, 0, 1, 0]);
  });
});
