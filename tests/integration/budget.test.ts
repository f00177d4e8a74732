import Decimal from "decimal.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runAfterCycleSteps } from "@/lib/jobs/after-cycle";
import { runPollCycle } from "@/lib/poller/cycle";
import { budgetGuard } from "@/lib/keys/budget-guard";
import { currentBudget, saveBudget } from "@/lib/spend/budget";
import { spendOverview, spendSeries } from "@/lib/spend/queries";
import { recordSpendSnapshot } from "@/lib/spend/snapshot";
import { importUsage } from "@/lib/usage/import";
import { usageByDataset, usageByProvider, usageTotals } from "@/lib/usage/queries";
import { DEFAULT_PLAN } from "@/lib/view-state/budget";
import { seedWatchedModels } from "@/lib/watched-models";
import { resetReplica, startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

const KIMI = "moonshotai/kimi-k2.5";
const HOUR = 3_600_000;

const FILE = [
  // chat completion responses, as the pipeline saved them
  JSON.stringify({ id: "gen-1", provider: "DeepInfra", model: "moonshotai/kimi-k2.5", dataset: "B3", usage: { prompt_tokens: 1000, completion_tokens: 4000, cost: 0.00945 } }),
  JSON.stringify({ id: "gen-2", provider: "Venice", model: "moonshotai/kimi-k2.5-20260127", dataset: "B3", usage: { prompt_tokens: 2000, completion_tokens: 2000, cost: 0.009 } }),
  "not json at all",
  // flat usage records without an id: deduplicated by a hash of the line
  JSON.stringify({ provider: "DeepInfra", input_tokens: 500, output_tokens: 1000, cost: "0.002475", dataset: "B4" }),
  JSON.stringify({ provider: "DeepInfra", input_tokens: -1, output_tokens: 1000, cost: 0.1 }),
  "",
  JSON.stringify({ provider: "Together", input_tokens: 100, output_tokens: 100, cost: 0.00033 }),
  JSON.stringify({ id: "gen-1", provider: "DeepInfra", model: "moonshotai/kimi-k2.5", dataset: "B3", usage: { prompt_tokens: 1000, completion_tokens: 4000, cost: 0.00945 } }),
].join("\n");

describe.each(engines)("budget, spend and usage on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  const keyed = () => createOpenRouterClient({ baseUrl: replica.baseUrl, apiKey: "test", timeoutMs: 2000, baseDelayMs: 5, maxAttempts: 2 });

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, [KIMI]);
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });
  beforeEach(async () => {
    await opened.db.spendSnapshot.deleteMany();
    await opened.db.budget.deleteMany();
  });
  afterEach(async () => resetReplica(replica.url));

  it("stores no spend snapshot without a key", async () => {
    const anonymous = createOpenRouterClient({ baseUrl: replica.baseUrl });
    expect(await recordSpendSnapshot(opened.db, anonymous)).toBeNull();
    expect(await opened.db.spendSnapshot.count()).toBe(0);
  });

  it("a poll cycle with a key reads /key, tolerates the 403 from /credits, and stores a snapshot", async () => {
    const client = keyed();
    const result = await runPollCycle(opened.db, client, {
      trigger: "test",
      afterModels: (cycleId) => runAfterCycleSteps(opened.db, client, cycleId),
    });
    expect(result.models[0].ok).toBe(true);
    const rows = await opened.db.spendSnapshot.findMany();
    expect(rows).toHaveLength(1);
    expect(rows[0].usage.toString()).toBe("12.5");
    expect(rows[0].limit?.toString()).toBe("100");
    expect(rows[0].limitRemaining?.toString()).toBe("87.5");
    expect(rows[0].totalCredits).toBeNull(); // a non-management key may not read /credits
  });

  it("computes spent since the budget start, the burn rate and when the money runs out", async () => {
    const t0 = new Date("2026-11-30T08:00:00Z");
    await saveBudget(opened.db, { amountUsd: "100", startAt: new Date(t0.getTime() - HOUR) });
    // the replica's usage grows by $0.75 per call: 12.50, 13.25, 14.00, 14.75
    for (let i = 0; i < 4; i++) {
      const snap = await recordSpendSnapshot(opened.db, keyed(), new Date(t0.getTime() + i * HOUR));
      expect(snap?.credits).toBe("not_allowed");
    }
    const now = new Date(t0.getTime() + 3 * HOUR);
    const overview = await spendOverview(opened.db, { amountUsd: "100", startAt: new Date(t0.getTime() - HOUR), saved: true }, now);
    // the first snapshot came after the start: spend is counted from it, and the page says so
    expect(overview.baseline).toMatchObject({ usage: "12.5", exact: false });
    expect(overview.spent).toBe("2.25");
    expect(overview.remaining).toBe("97.75");
    expect(overview.burn).toMatchObject({ usdPerHour: "0.7500", windowHours: 6 });
    // 97.75 / 0.75 = 130.33 h after the latest snapshot
    expect(overview.runOut).toEqual({ at: new Date(now.getTime() + new Decimal("97.75").div("0.75").times(HOUR).round().toNumber()).toISOString(), hoursLeft: "130.33" });

    // a budget starting between snapshots counts from the last one before it
    const later = await spendOverview(opened.db, { amountUsd: "2", startAt: new Date(t0.getTime() + 1.5 * HOUR), saved: true }, now);
    expect(later.baseline).toMatchObject({ usage: "13.25", exact: true });
    expect(later.spent).toBe("1.50");
    expect(later.remaining).toBe("0.50");

    const exhausted = await spendOverview(opened.db, { amountUsd: "1", startAt: t0, saved: true }, now);
    expect(exhausted.runOut).toEqual({ at: "exhausted" });

    const series = await spendSeries(opened.db, t0, now, "12.5");
    expect(series.map((p) => p.spent)).toEqual(["0.000000", "0.750000", "1.500000", "2.250000"]);
  });

  it("GET /api/budget's guard gives spent and remaining exactly, never a negative zero", async () => {
    const t0 = new Date("2026-11-30T08:00:00Z");
    await saveBudget(opened.db, { amountUsd: "10", startAt: t0 });
    const snapshot = (minutes: number, usage: string) => opened.db.spendSnapshot.create({ data: { observedAt: new Date(t0.getTime() + minutes * 60_000), usage, demo: true } });
    await snapshot(0, "12.5");

    // 0.0117 spent: the page rounds to cents, the guard keeps every digit
    await snapshot(60, "12.5117");
    let at = new Date(t0.getTime() + 61 * 60_000);
    expect(await budgetGuard(opened.db, null, at)).toMatchObject({ budgetUsd: "10.00", spentUsd: "0.0117", remainingUsd: "9.9883", ok: true, pipelineKey: null, keyReadError: null });
    expect(await spendOverview(opened.db, await currentBudget(opened.db), at)).toMatchObject({ spent: "0.01", remaining: "9.99" });

    // 10.004 spent: over the budget by $0.004, which the page shows as $0.00 left, never -0.00
    await snapshot(120, "22.504");
    at = new Date(t0.getTime() + 121 * 60_000);
    const over = await budgetGuard(opened.db, null, at);
    expect(over).toMatchObject({ spentUsd: "10.004", remainingUsd: "-0.004", ok: false, reason: expect.stringMatching(/budget of \$10\.00 is spent \(\$10\.00 since/) });
    expect(await spendOverview(opened.db, await currentBudget(opened.db), at)).toMatchObject({ spent: "10.00", remaining: "0.00" });

    // exactly the budget: zero left, written "0.00"
    await snapshot(180, "22.5");
    at = new Date(t0.getTime() + 181 * 60_000);
    expect(await budgetGuard(opened.db, null, at)).toMatchObject({ spentUsd: "10.00", remainingUsd: "0.00", ok: false });

    // the answer as a pipeline reads it: no "-0" anywhere in the JSON
    await snapshot(240, "22.501");
    const text = JSON.stringify(await budgetGuard(opened.db, null, new Date(t0.getTime() + 241 * 60_000)));
    expect(text).toContain('"remainingUsd":"-0.001"');
    expect(text).not.toMatch(/"-0(\.0+)?"/);
  });

  it("imports usage JSONL: bad lines by number, and a second import changes nothing", async () => {
    const first = await importUsage(opened.db, "run-1.jsonl", FILE);
    expect(first).toMatchObject({ lines: 7, accepted: 4, duplicates: 1, rejected: 2 });
    expect(first.errors.map((e) => e.line)).toEqual([3, 5]);
    expect(first.errors[1].message).toMatch(/input_tokens/);

    const before = await usageTotals(opened.db);
    const again = await importUsage(opened.db, "run-1.jsonl", FILE);
    expect(again).toMatchObject({ accepted: 0, duplicates: 5, rejected: 2 });
    const after = await usageTotals(opened.db);
    expect(after.records).toBe(before.records);
    expect(after.costUsd).toBe(before.costUsd);
    expect(await opened.db.usageRecord.count()).toBe(4);

    // an overlapping file adds only what is new
    const more = await importUsage(opened.db, "run-2.jsonl", `${FILE.split("\n")[0]}\n${JSON.stringify({ id: "gen-9", provider: "DeepInfra", usage: { prompt_tokens: 0, completion_tokens: 1_000_000, cost: 2.25 } })}`);
    expect(more).toMatchObject({ accepted: 1, duplicates: 1, rejected: 0 });
  });

  it("reports actual cost and $/M by provider against the listed prices, and by dataset against the plan", async () => {
    await opened.db.usageRecord.deleteMany();
    await runPollCycle(opened.db, keyed(), { trigger: "test" }); // listed prices to compare with
    await importUsage(opened.db, "run.jsonl", FILE);
    const providers = await usageByProvider(opened.db);
    const deepinfra = providers.find((p) => p.provider === "DeepInfra" && p.modelId === null);
    // the flat record: 500 in + 1000 out for $0.002475 = exactly the listed 0.45/2.25
    expect(deepinfra).toMatchObject({ requests: 1, costUsd: "0.00", listedCostUsd: "0.00", listedInputPerM: "0.45", listedOutputPerM: "2.25", actualPerM: "1.6500" });
    const venice = providers.find((p) => p.provider === "Venice");
    expect(venice).toMatchObject({ inputTokens: "2000", outputTokens: "2000", actualPerM: "2.2500", listedOutputPerM: "3.75" });

    const datasets = await usageByDataset(opened.db, DEFAULT_PLAN);
    expect(datasets.map((d) => d.dataset)).toEqual(["B3", "B4", "B5", "B6", "B7", "B8", "(no dataset)"]);
    expect(datasets[0]).toMatchObject({ requests: 2, inputTokens: "3000", outputTokens: "6000", planned: { outputTokens: 10_000_000 } });
    expect(datasets[0].costUsd).toBe("0.02");
  });
});
