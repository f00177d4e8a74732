import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { putBudgetAlert } from "@/lib/alerts/detect-budget";
import type { OpenedDb } from "@/lib/db/engines";
import { setKeyLimit } from "@/lib/keys/operations";
import { choosePipelineKey } from "@/lib/keys/records";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { createManagementClient } from "@/lib/openrouter/management";
import { saveBudget } from "@/lib/spend/budget";
import { recordSpendSnapshot } from "@/lib/spend/snapshot";
import { importUsage } from "@/lib/usage/import";
import { MANAGEMENT_KEY_PREFIX } from "@/replica/keys";
import { startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

// The global budget conditions, detected where the spend snapshot and the pipeline key's usage are
// written, against the replica's /key (its usage grows by $0.75 per read) and its managed keys.

const HOUR = 3_600_000;

describe.each(engines)("budget alerts on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  const keyed = () => createOpenRouterClient({ baseUrl: replica.baseUrl, apiKey: "test", timeoutMs: 2000, baseDelayMs: 5, maxAttempts: 2 });
  const management = () =>
    createManagementClient({ baseUrl: replica.baseUrl, apiKey: `${MANAGEMENT_KEY_PREFIX}alerts`, timeoutMs: 3000, baseDelayMs: 1, maxAttempts: 2, sleep: async () => undefined });
  const events = (kind: string) => opened.db.alertEvent.findMany({ where: { kind }, orderBy: { id: "asc" } });

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });

  it("spend reaching 50, 80 and 100% of the budget says each step once; the run-out once", async () => {
    const t0 = new Date("2026-11-30T08:00:00Z");
    await saveBudget(opened.db, { amountUsd: "2.50", startAt: new Date(t0.getTime() - HOUR) });
    await putBudgetAlert(opened.db, { spendSteps: true, runOut: true });
    // The rate paid so far: 1M output tokens of B3 for $1.00, so the rest of the seed's plan
    // (9M of B3, 10M each of B4–B8) costs $59.00, far more than this budget has left.
    const usage = { id: "alerts-plan-1", provider: "DeepInfra", model: "moonshotai/kimi-k2.5", dataset: "B3", usage: { prompt_tokens: 100_000, completion_tokens: 1_000_000, cost: 1 } };
    expect((await importUsage(opened.db, "plan.jsonl", JSON.stringify(usage))).accepted).toBe(1);
    // $0.00, 0.75 (30%), 1.50 (60%), 2.25 (90%), 3.00 (120%), 3.75 (150%) spent since the start
    const spent: string[][] = [];
    for (let i = 0; i < 6; i++) {
      await recordSpendSnapshot(opened.db, keyed(), new Date(t0.getTime() + i * HOUR));
      spent.push((await events("budget-spend")).map((e) => String((e.data as { step: number }).step)));
    }
    expect(spent).toEqual([[], [], ["50"], ["50", "80"], ["50", "80", "100"], ["50", "80", "100"]]);
    const [fifty] = await events("budget-spend");
    expect(fifty.data).toMatchObject({ step: 50, budgetUsd: "2.50", spentUsd: "1.50", remainingUsd: "1.00", percent: "60.0" });
    expect(fifty.summary).toBe("Spend reached 50% of the $2.50 budget: $1.50 spent since 2026-11-30");
    expect(fifty.observedAt).toEqual(new Date(t0.getTime() + 2 * HOUR));
    // The burn rate needs 30 minutes of snapshots: the run-out is projected from the second one,
    // before the plan is covered, and said once.
    const runOut = await events("budget-run-out");
    expect(runOut).toHaveLength(1);
    expect(runOut[0].data).toMatchObject({ burnUsdPerHour: "0.7500", remainingUsd: "1.75", hoursLeft: "2.33", planToFinishUsd: "59.00", planOutputTokensLeft: "59000000" });
    expect(runOut[0].summary).toContain("before the plan is covered: the rest of the plan costs about $59.00 at the rate paid so far, and $1.75 is left");

    // A new budget starts the steps over.
    await saveBudget(opened.db, { amountUsd: "100.00", startAt: new Date(t0.getTime() - HOUR) });
    await recordSpendSnapshot(opened.db, keyed(), new Date(t0.getTime() + 6 * HOUR));
    expect(await events("budget-spend")).toHaveLength(3);
  });

  it("the pipeline key's limit_remaining falling below the amount is said once", async () => {
    const hash = (await management().listKeys()).data.find((k) => k.name === "Batch pipeline")?.hash as string;
    await choosePipelineKey(opened.db, { hash, name: "Batch pipeline" }, "ana");
    await putBudgetAlert(opened.db, { keyLimitBelowUsd: "50.00" });
    await setKeyLimit(opened.db, management(), { hash, limitUsd: "100.00", actor: "ana" }); // $58.63 left
    expect(await events("key-limit")).toEqual([]);
    await setKeyLimit(opened.db, management(), { hash, limitUsd: "80.00", actor: "ana" }); // $38.63 left
    await setKeyLimit(opened.db, management(), { hash, limitUsd: "70.00", actor: "ana" }); // $28.63 left: still below
    const said = await events("key-limit");
    expect(said).toHaveLength(1);
    expect(said[0].data).toMatchObject({ key: "Batch pipeline", limitRemainingUsd: "38.63", belowUsd: "50.00", old: "above", new: "below" });
    expect(said[0].summary).toBe("The pipeline key “Batch pipeline” has $38.63 of its limit left, below $50.00");
  });
});
