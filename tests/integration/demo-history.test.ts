import Decimal from "decimal.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { listChanges } from "@/lib/history/change-log";
import { modelSeries } from "@/lib/history/series";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { getRunResults, getRunView } from "@/lib/probe/runs";
import { latestVerdicts } from "@/lib/queries/probe-verdicts";
import { probeSpend } from "@/lib/probe/spend";
import { DEMO_HISTORY_TRIGGER, generateDemoHistory, hasDemoModelPolls } from "@/replica/demo-history";
import { hasDemoProbe, runDemoProbe } from "@/replica/demo-probe";
import { demoPatches } from "@/replica/demo-scenario";
import { startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

// The demo's generated month, on both engines: written through the poller's storage path, it
// must leave the four scripted events in the change log and 30 days of series, all marked demo;
// and the demo's replica (the history's final state, drifting) must continue it: its first poll
// records the drift's price move and undoes nothing of the history. The demo's probe is run by
// the real runner against that replica and is labelled demo.

const KIMI = "moonshotai/kimi-k2.5";
const END = new Date("2026-06-30T12:00:00Z");
const DAY = 86_400_000;

describe.each(engines)("demo history on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;

  beforeAll(async () => {
    opened = await engine.open();
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });

  it("generates 30 days through the poller's storage path, with the four scripted events in the change log", async () => {
    expect(await hasDemoModelPolls(opened.db)).toBe(false);
    const result = await generateDemoHistory(opened.db, { end: END });
    expect(await hasDemoModelPolls(opened.db)).toBe(true);

    // Hourly for 28 days, every 5 minutes for the last 2: each poll a cycle of its own, all demo.
    expect(result.polls).toBe(28 * 24 - 1 + 2 * 288 + 1);
    expect(await opened.db.modelPoll.count({ where: { modelId: KIMI, ok: true, demo: true } })).toBe(result.polls);
    expect(await opened.db.modelPoll.count({ where: { demo: false } })).toBe(0);
    expect(await opened.db.pollCycle.count({ where: { trigger: DEMO_HISTORY_TRIGGER } })).toBe(result.polls);
    const span = await opened.db.modelPoll.aggregate({ _min: { observedAt: true }, _max: { observedAt: true } });
    expect(span._max.observedAt?.toISOString()).toBe(END.toISOString());
    expect(END.getTime() - (span._min.observedAt?.getTime() ?? 0)).toBe(30 * DAY - 3_600_000);

    const log = await listChanges(opened.db, KIMI, { limit: 200 });
    const lines = log?.changes
      .map((c) => `${new Date(END.getTime() - new Date(c.observedAt).getTime()).getTime() / 3_600_000}h before: ${c.kind} ${c.tag} ${c.kind === "uptime" ? (Number(c.before) >= 95 ? "≥95" : "<95") : c.before} → ${c.kind === "uptime" ? (Number(c.after) >= 95 ? "≥95" : "<95") : c.after}`)
      .reverse();
    expect(lines).toEqual([
      "288h before: price deepinfra 0.45 / 2.25 → 0.40 / 2.00", // the price cut
      "216h before: status novita 0 → -2", // the outage begins…
      "216h before: uptime novita ≥95 → <95",
      "211h before: status novita -2 → 0", // …and ends 5 hours later
      "211h before: uptime novita <95 → ≥95",
      "192h before: quantization together unknown → fp8", // the quantization switch
      "96h before: added nebius/fp8 null → fp8", // the new endpoint
    ]);
    expect(result.changes).toBe(7);

    // The endpoint the history added is stored as the poller stores one: first seen when it appeared.
    const nebius = await opened.db.endpoint.findFirst({ where: { tag: "nebius/fp8" } });
    expect(nebius?.firstSeenAt.toISOString()).toBe(new Date(END.getTime() - 4 * DAY).toISOString());
    expect(nebius?.lastSeenAt.toISOString()).toBe(END.toISOString());
  }, 50_000); // 12.5 s in a CI run, 20.5 s beside a second one

  it("has 30 days of series: the roll-up made the hourly rows, the charts read a line per endpoint", async () => {
    const hourly = await opened.db.endpointHourly.aggregate({ _count: true, _min: { hour: true }, _max: { hour: true } });
    // 11 endpoints for 30 days and Nebius for 4 (complete hours only: the last hour is still open).
    expect(hourly._count).toBeGreaterThan(11 * 29 * 24);
    expect(END.getTime() - (hourly._min.hour?.getTime() ?? END.getTime())).toBeGreaterThanOrEqual(29 * DAY);

    const series = await modelSeries(opened.db, KIMI, "inputPrice", "30d", { now: END });
    expect(series?.endpoints).toHaveLength(12);
    const deepinfra = series?.endpoints.find((e) => e.tag === "deepinfra")?.points.filter((p) => p.polls > 0) ?? [];
    expect(deepinfra.length).toBeGreaterThanOrEqual(119); // 6-hour buckets over 30 days
    expect(deepinfra[0].value).toBe("0.45");
    expect(deepinfra[deepinfra.length - 1].value).toBe("0.40");
    const uptime = await modelSeries(opened.db, KIMI, "uptime30m", "30d", { now: END });
    const novitaLowest = Math.min(...(uptime?.endpoints.find((e) => e.tag === "novita")?.points.flatMap((p) => (typeof p.min === "number" ? [p.min] : [])) ?? []));
    expect(novitaLowest).toBeLessThan(50); // the outage shows on the chart
    const day = await modelSeries(opened.db, KIMI, "uptime30m", "24h", { now: END });
    // The last day is polled every 5 minutes: every 5-minute bucket of the 24 h chart holds a poll.
    expect(day?.endpoints.find((e) => e.tag === "chutes/int4")?.points.filter((p) => p.polls > 0).length).toBeGreaterThanOrEqual(287);
  });

  it("the demo's probe: the real runner against the demo's replica finishes with every verdict, all labelled demo", async () => {
    replica = await startReplica(0, "127.0.0.1", { patches: demoPatches(), drift: { seed: 1 } });
    expect(await hasDemoProbe(opened.db)).toBe(false);
    const probe = await runDemoProbe(opened.db, replica.baseUrl);
    expect(probe.outcome).toBe("done");
    expect(await hasDemoProbe(opened.db)).toBe(true);
    const run = await getRunView(opened.db, probe.runId);
    expect(run).toMatchObject({ status: "done", demo: true, reference: "moonshotai/int4", promptSet: "builtin", progress: { done: probe.requests, total: probe.requests } });
    // Its cost is what the replica charged for the answers it kept, to the last digit: each stored
    // answer's cost is the charge the replica recorded under that generation id. (The replica's
    // total can be higher: a request that timed out on a busy machine was charged, then retried.)
    const charges = new Map(replica.state.chat.calls.map((c) => [c.id, c.cost]));
    const answers = await opened.db.probeRequest.findMany({ where: { runId: probe.runId, status: "done" }, select: { generationId: true, costUsd: true } });
    // (A few requests end in an error the endpoint answered with, e.g. a refused prefill: no answer,
    // no charge; the sequential design's early looks leave some unsent, never charged either.)
    const skipped = run?.progress.skipped ?? 0;
    expect(skipped).toBeGreaterThan(0); // the clear cases (bf16, NVFP4) are decided at the first look
    expect(answers.length).toBeGreaterThan((probe.requests - skipped) * 0.9);
    expect(replica.state.chat.calls.length).toBeLessThan(probe.requests - skipped + 50); // skipped requests were never sent (50: room for retried timeouts)
    for (const a of answers) expect(a.costUsd?.toString(), a.generationId ?? "no id").toBe(new Decimal(charges.get(a.generationId ?? "") ?? "NaN").toString());
    const charged = answers.reduce((sum, a) => sum.plus(charges.get(a.generationId ?? "") ?? "NaN"), new Decimal(0));
    expect(new Decimal(String(run?.costUsd)).equals(charged)).toBe(true);
    const verdicts = Object.fromEntries((await getRunResults(opened.db, probe.runId)).map((r) => [r.tag, r.verdict]));
    // The replica's scripted endpoints (replica/chat.ts), with the demo's Nebius and healthy Novita;
    // BaseTen (status -5) is not probed by default.
    expect(verdicts).toMatchObject({
      "moonshotai/int4": "reference",
      "chutes/int4": "equivalent",
      "siliconflow/int4": "unverifiable", // no logprobs: nothing bounds its divergence
      "nebius/fp8": "equivalent",
      fireworks: "differs",
      venice: "unverifiable", // re-quantized, but no logprobs: never certified, never excluded as differs
      together: "prompt-format",
      novita: "not-pinned",
    });
    expect(verdicts).not.toHaveProperty("baseten/fp4");
    const latest = await latestVerdicts(opened.db, KIMI);
    expect(latest.length).toBe(Object.keys(verdicts).length);
    expect(latest.every((v) => v.demo && v.runId === probe.runId)).toBe(true);
    const spend = await probeSpend(opened.db);
    expect(spend).toEqual([expect.objectContaining({ modelId: KIMI, runs: 1 })]);
    expect(new Decimal(spend[0].costUsd).equals(charged)).toBe(true);
  }, 100_000); // 26 s in a CI run, 42 s beside a second one

  it("the demo's drifting replica continues the history: a poll records the drift's price move and nothing else", async () => {
    const client = createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 5000, baseDelayMs: 5, maxAttempts: 2 });
    const before = await opened.db.changeEvent.count();
    const poll = async () => {
      const result = await runPollCycle(opened.db, client, { trigger: "test" });
      expect(result.models.map((m) => m.ok)).toEqual([true]);
      return opened.db.changeEvent.findMany({ where: { id: { gt: 0 } }, orderBy: { id: "asc" }, skip: before });
    };
    const first = await poll();
    expect(first).toHaveLength(1);
    expect(first[0].kind).toBe("price");
    const second = (await poll()).slice(1);
    expect(second).toHaveLength(1);
    expect(second[0].kind).toBe("price");
    const latest = await opened.db.modelPoll.findFirst({ where: { ok: true }, orderBy: { startedAt: "desc" } });
    expect(latest?.demo).toBe(true);
    expect(latest?.endpointCount).toBe(12);
  });
});
