import Decimal from "decimal.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runAfterCycleSteps } from "@/lib/jobs/after-cycle";
import { runPollCycle } from "@/lib/poller/cycle";
import { cancelRun, estimateProbe, getRunView, money } from "@/lib/probe/runs";
import { getSchedule, saveSchedule, scheduleInputSchema, WEEK_MS } from "@/lib/probe/schedule";
import { seedWatchedModels } from "@/lib/watched-models";
import { patchReplica, resetReplica, startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

// The scheduled re-probe on both engines, driven as in the running app: a poll cycle against the
// replica, then the after-cycle steps (the schedule is one). Off by default; on, it queues a run
// weekly and when an endpoint appears or changes, one active run at a time, within the monthly cap.

const KIMI = "moonshotai/kimi-k2.5";
const DAY = 86_400_000;

describe.each(engines)("scheduled re-probe on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;

  const cycle = async () => {
    // The poller's own retries (timeouts, 5xx) as in the app: the replica shares this busy process.
    const client = createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 30_000, maxAttempts: 3, baseDelayMs: 50 });
    const result = await runPollCycle(opened.db, client, { trigger: "test", afterModels: (cycleId) => runAfterCycleSteps(opened.db, client, cycleId) });
    expect(result.models.map((m) => m.ok)).toEqual([true]);
  };
  const runs = () => opened.db.probeRun.findMany({ where: { modelId: KIMI }, orderBy: { id: "asc" } });
  /** Ends the active run, as a cancel from the page would. */
  const finishActive = async () => {
    const active = await opened.db.probeActiveRun.findUnique({ where: { modelId: KIMI } });
    if (active) await cancelRun(opened.db, active.runId);
  };
  /** Moves every run back in time, as if it had been created that long ago. */
  const age = (ms: number) => opened.db.$executeRaw`UPDATE "ProbeRun" SET "createdAt" = "createdAt" - make_interval(secs => ${ms / 1000}::int)`;

  /** On, with the first weekly run queued and ended: what a model looks like after its first scheduled probe. */
  const scheduledOnce = async () => {
    await saveSchedule(opened.db, KIMI, { enabled: true, monthlyCapUsd: "5.00" });
    await cycle();
    expect((await runs()).map((r) => r.scheduledBy)).toEqual(["weekly"]);
    await finishActive();
  };

  // Each test has a database of its own and the replica as it starts, so none depends on what
  // another left (they pass in any order: `npx vitest run <this file> --sequence.shuffle`).
  beforeAll(async () => {
    replica = await startReplica();
  }, 60_000);
  afterAll(() => replica?.close());
  beforeEach(async () => {
    [opened] = await Promise.all([engine.open(), resetReplica(replica.url)]);
    await seedWatchedModels(opened.db, [KIMI]);
  }, 60_000);
  afterEach(() => opened?.close());

  it("is off by default: polls and a new endpoint queue nothing, though a first weekly run would be due", async () => {
    expect(await getSchedule(opened.db, KIMI)).toEqual({
      modelId: KIMI,
      enabled: false,
      monthlyCapUsd: "5.00",
      monthSpentUsd: "0.00",
      lastQueuedAt: null,
      pendingChange: null,
      skipped: null,
    });
    await cycle();
    await patchReplica(replica.url, { model: KIMI, tag: "nebius/fp8", set: { provider_name: "Nebius", quantization: "fp8" } });
    await cycle();
    expect(await opened.db.changeEvent.count({ where: { modelId: KIMI, kind: "added", tag: "nebius/fp8" } })).toBe(1);
    expect(await runs()).toEqual([]);
  });

  it("on: queues one weekly run at once (no probe yet), then none until a week has passed, then one", async () => {
    await saveSchedule(opened.db, KIMI, { enabled: true, monthlyCapUsd: "5.00" });
    await cycle();
    const [first] = await runs();
    expect(first).toMatchObject({ scheduledBy: "weekly", status: "queued", referenceTag: "moonshotai/int4", promptSet: "builtin" });
    expect(first.maxCostUsd.toString()).toBe("5"); // all of the month's cap is left
    expect((await getRunView(opened.db, first.id))?.scheduledBy).toBe("weekly");
    expect((await getSchedule(opened.db, KIMI)).lastQueuedAt).not.toBeNull();

    // Still active: another cycle queues nothing (ProbeActiveRun keeps it to one).
    await cycle();
    expect(await runs()).toHaveLength(1);
    await finishActive();
    await cycle();
    expect(await runs()).toHaveLength(1); // the latest probe is less than a week old

    await age(WEEK_MS + DAY);
    await cycle();
    const all = await runs();
    expect(all).toHaveLength(2);
    expect(all[1]).toMatchObject({ scheduledBy: "weekly", status: "queued" });
    await finishActive();
  });

  it("on: a new endpoint in the replica queues exactly one run, named after it; a change seen while busy waits for the next", async () => {
    await scheduledOnce();
    const before = (await runs()).length;
    await patchReplica(replica.url, { model: KIMI, tag: "lambda/fp8", set: { provider_name: "Lambda", quantization: "fp8" } });
    await cycle();
    const queued = (await runs()).slice(before);
    expect(queued.map((r) => r.scheduledBy)).toEqual(["added lambda/fp8"]);
    expect(queued[0].endpointTags).toContain("lambda/fp8");
    await cycle();
    expect((await runs()).length).toBe(before + 1);

    // While that run is active, Together changes its quantization: kept, and probed after.
    await patchReplica(replica.url, { model: KIMI, tag: "together", set: { quantization: "fp4" } });
    await cycle();
    expect((await runs()).length).toBe(before + 1);
    expect((await getSchedule(opened.db, KIMI)).pendingChange).toMatch(/^quantization of together \S+ → fp4$/);
    await finishActive();
    await cycle();
    const after = (await runs()).slice(before);
    expect(after.map((r) => r.scheduledBy)).toEqual(["added lambda/fp8", expect.stringMatching(/^quantization of together \S+ → fp4$/)]);
    expect((await getSchedule(opened.db, KIMI)).pendingChange).toBeNull();
    await finishActive();
  });

  it("the monthly cap: a run whose estimate would pass it is skipped, and the reason is stored and shown", async () => {
    // One of this month's scheduled runs already cost $0.40; then on with a cap the month has nearly used up.
    await scheduledOnce();
    const before = (await runs()).length;
    const last = (await runs()).at(-1);
    if (!last?.scheduledBy) throw new Error("no scheduled run to charge");
    await opened.db.probeRun.update({ where: { id: last.id }, data: { costUsd: "0.40" } });
    await saveSchedule(opened.db, KIMI, { enabled: true, monthlyCapUsd: "0.41" });

    await patchReplica(replica.url, { model: KIMI, tag: "cerebras/fp8", set: { provider_name: "Cerebras", quantization: "fp8" } });
    await cycle();
    expect((await runs()).length).toBe(before);
    const estimate = await estimateProbe(opened.db, KIMI, {});
    if ("error" in estimate) throw new Error(estimate.error);
    expect(new Decimal(estimate.estimateUsd).greaterThan("0.01")).toBe(true);
    const schedule = await getSchedule(opened.db, KIMI);
    expect(schedule.monthSpentUsd).toBe("0.40");
    expect(schedule.skipped?.reason).toBe(
      `Skipped the run for added cerebras/fp8: its estimate $${estimate.estimateUsd} on top of this month's $0.40 ` +
        `would make $${money(new Decimal("0.40").plus(estimate.estimateUsd))}, over the monthly cap of $0.41`,
    );
    expect(schedule.skipped?.at).toMatch(/^\d{4}-/);
    await cycle(); // skipped is skipped: the same change is not tried again
    expect((await runs()).length).toBe(before);

    // With room under the cap, the next change is queued with what the month has left as its cap.
    await saveSchedule(opened.db, KIMI, { enabled: true, monthlyCapUsd: "5.00" });
    await patchReplica(replica.url, { model: KIMI, tag: "groq/fp8", set: { provider_name: "Groq", quantization: "fp8" } });
    await cycle();
    const queued = (await runs()).slice(before);
    expect(queued.map((r) => r.scheduledBy)).toEqual(["added groq/fp8"]);
    expect(queued[0].maxCostUsd.toString()).toBe("4.6");
    expect((await getSchedule(opened.db, KIMI)).skipped).toBeNull();
    await finishActive();

    // Turned off: due or not, nothing more.
    await saveSchedule(opened.db, KIMI, { enabled: false, monthlyCapUsd: "5.00" });
    await age(WEEK_MS + DAY);
    await patchReplica(replica.url, { model: KIMI, tag: "sambanova/fp8", set: { provider_name: "SambaNova", quantization: "fp8" } });
    await cycle();
    expect((await runs()).length).toBe(before + 1);
  });

  it("bad settings name the field", () => {
    const error = (input: unknown) => scheduleInputSchema.safeParse(input).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(error({ enabled: "yes", monthlyCapUsd: "5" })).toEqual(["enabled: must be true or false"]);
    expect(error({ enabled: true, monthlyCapUsd: 5 })).toEqual(['monthlyCapUsd: must be a decimal string of dollars, e.g. "5.00"']);
    expect(error({ enabled: true, monthlyCapUsd: "0" })).toEqual(["monthlyCapUsd: must be more than 0"]);
    expect(error({ enabled: true, monthlyCapUsd: "5.00" })).toBeUndefined();
  });
});
