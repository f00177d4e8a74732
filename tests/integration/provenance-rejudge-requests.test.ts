import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { deleteKnownQuantization, setKnownQuantization } from "@/lib/known-quantization";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { chooseDatasetView } from "@/lib/provenance/choices";
import { rejudge } from "@/lib/provenance/rejudge";
import { rejudgeRequests, requestRejudge, runPendingRejudges, runRejudgeRequest } from "@/lib/provenance/rejudge-requests";
import { createView } from "@/lib/saved-views";
import { importUsage } from "@/lib/usage/import";
import { seedWatchedModels } from "@/lib/watched-models";
import { startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";
import { storedReasons } from "../helpers/stored-reasons";

// A re-judgement is a durable request (lib/provenance/rejudge-requests.ts): a fact that changes
// classes asks for it before (or with) the change, so a process that dies mid-pass, or a pass that
// fails, leaves the request for the re-judgement job, which finishes it. Here the state a dead
// process leaves is written as it would leave it (the row claimed, its lease run out), on both
// engines; on the server, a request asked again while its pass runs makes the pass go round.

const KIMI = "moonshotai/kimi-k2.5";
const TEAM_NOTE = /quantization fp8 \(team's record\)/;

describe.each(engines)("re-judgement requests on the $name engine", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;

  /** The stored reasons of every Novita generation, joined: whether they cite the team's note. */
  const novitaReasons = async () => {
    const reasonsOf = await storedReasons(opened.db);
    return (await opened.db.usageRecord.findMany({ where: { provider: "Novita" }, include: { judgement: true } })).map((r) => reasonsOf(r.judgement).join("\n"));
  };
  const rows = () => opened.db.provenanceRejudge.findMany();
  const later = (ms: number) => () => new Date(Date.now() + ms);

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, [KIMI]);
    await runPollCycle(opened.db, createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 2000, baseDelayMs: 5, maxAttempts: 2 }), { trigger: "test" });
    const slug = (await createView(opened.db, { name: "Pipeline", modelId: KIMI, query: "xp=deepinfra" })).slug;
    expect(await chooseDatasetView(opened.db, { dataset: "B6", view: slug })).toEqual({ ok: true });
    const from = Date.now() + 60_000;
    const body = Array.from({ length: 40 }, (_, i) =>
      JSON.stringify({
        id: `gen-rejudge-${i}`,
        provider: ["Chutes", "Novita", "DeepInfra", "Parasail"][i % 4],
        model: KIMI,
        dataset: "B6",
        input_tokens: 100 + i,
        output_tokens: 900 + i,
        cost: "0.0021",
        occurred_at: new Date(from + i * 60_000).toISOString(),
      }),
    ).join("\n");
    expect(await importUsage(opened.db, "b6.jsonl", body)).toMatchObject({ accepted: 40 });
    // Choosing the view asked for a re-judgement and ran it: nothing is left asked.
    expect(await rows()).toEqual([]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });

  it("a request a process left mid-pass (its lease run out) is finished by the job's round, with the facts as they are now", async () => {
    expect((await novitaReasons()).some((r) => TEAM_NOTE.test(r))).toBe(false);
    // The route asks first, records the note, and dies in the pass it started.
    await requestRejudge(opened.db, { modelId: KIMI }, "a known quantization was recorded");
    await setKnownQuantization(opened.db, KIMI, { tag: "novita", quantization: "fp8", note: "their docs say fp8", recordedBy: "test" });
    await opened.db.provenanceRejudge.update({
      where: { scope: `model:${KIMI}` },
      data: { startedAt: new Date(Date.now() - 200_000), leaseUntil: new Date(Date.now() - 1_000), judged: 7, total: 40, attempts: 1 },
    });
    // Until the job runs, the page says it waits (no progress of the dead pass is shown as running).
    expect(await rejudgeRequests(opened.db)).toMatchObject([{ what: `the generations under ${KIMI}’s saved views`, state: "waiting", judged: 0, reason: "a known quantization was recorded" }]);
    expect((await novitaReasons()).some((r) => TEAM_NOTE.test(r))).toBe(false);

    expect(await runPendingRejudges(opened.db)).toBe(1);
    expect(await rows()).toEqual([]);
    const reasons = await novitaReasons();
    expect(reasons.length).toBeGreaterThan(0);
    expect(reasons.every((r) => TEAM_NOTE.test(r))).toBe(true);
    // Nothing was left for another pass: a full one writes nothing.
    expect((await rejudge(opened.db, {})).written).toBe(0);
  });

  it("a pass that still holds its lease is left to it; once the lease runs out the job takes the request over", async () => {
    await deleteKnownQuantization(opened.db, KIMI, "novita");
    await requestRejudge(opened.db, { modelId: KIMI }, "a known quantization was removed");
    const start = new Date();
    await opened.db.provenanceRejudge.update({
      where: { scope: `model:${KIMI}` },
      data: { startedAt: start, leaseUntil: new Date(start.getTime() + 60_000), judged: 10, total: 40, attempts: 1 },
    });
    expect(await rejudgeRequests(opened.db)).toMatchObject([{ state: "running", judged: 10, total: 40, startedAt: start.toISOString() }]);
    expect(await runPendingRejudges(opened.db)).toBe(0);
    expect(await runRejudgeRequest(opened.db, { modelId: KIMI })).toEqual({ state: "busy" });
    expect((await novitaReasons()).every((r) => TEAM_NOTE.test(r))).toBe(true);
    // Two minutes on, the lease has run out: the job's round judges again.
    expect(await runPendingRejudges(opened.db, later(120_000))).toBe(1);
    expect(await rows()).toEqual([]);
    expect((await novitaReasons()).some((r) => TEAM_NOTE.test(r))).toBe(false);
    expect(await runRejudgeRequest(opened.db, { modelId: KIMI })).toEqual({ state: "absent" });
  });

  it("a pass that fails records why and is tried again after a pause, and a new request does not wait for the pause", async () => {
    await requestRejudge(opened.db, { dataset: "B6" }, "view test was chosen");
    // The pass fails at its end, where it marks the dataset computed.
    await opened.db.$executeRawUnsafe(`ALTER TABLE "ProvenanceComputed" RENAME TO "ProvenanceComputedAway"`);
    try {
      await expect(runRejudgeRequest(opened.db, { dataset: "B6" })).rejects.toThrow(/ProvenanceComputed/);
    } finally {
      await opened.db.$executeRawUnsafe(`ALTER TABLE "ProvenanceComputedAway" RENAME TO "ProvenanceComputed"`);
    }
    const [failed] = await rejudgeRequests(opened.db);
    expect(failed).toMatchObject({ what: "dataset B6", state: "retrying", lastError: expect.stringMatching(/ProvenanceComputed/) });
    // The first pause is one to two minutes (lib/backoff.ts: the upper half of a 2-minute ceiling).
    const pause = Date.parse(failed.nextAt ?? "") - Date.now();
    expect(pause).toBeGreaterThan(55_000);
    expect(pause).toBeLessThanOrEqual(120_000);
    expect(await runPendingRejudges(opened.db)).toBe(0);
    expect(await runPendingRejudges(opened.db, later(121_000))).toBe(1);
    expect(await rows()).toEqual([]);

    // A request that fails again, then is asked for anew (a new fact): tried at once.
    await requestRejudge(opened.db, { dataset: "B6" }, "view test was chosen");
    await opened.db.provenanceRejudge.update({ where: { scope: "dataset:B6" }, data: { lastError: "an earlier failure", nextAt: new Date(Date.now() + 600_000), attempts: 3 } });
    await requestRejudge(opened.db, { dataset: "B6" }, "its view was cleared");
    expect(await runPendingRejudges(opened.db)).toBe(1);
    expect(await rows()).toEqual([]);
  });

  // Two connections racing: the embedded engine has one, so the server's pass alone runs this.
  if (engine.name === "postgres") {
    it("a request asked again while its pass runs makes the pass go round again, with the facts the request followed", async () => {
      // A note recorded with no pass yet: the next pass has Novita's judgements to write.
      await setKnownQuantization(opened.db, KIMI, { tag: "novita", quantization: "fp8", note: "their docs say fp8", recordedBy: "test" });
      await requestRejudge(opened.db, { modelId: KIMI }, "a known quantization was recorded");
      let pass: Promise<Awaited<ReturnType<typeof runRejudgeRequest>>> | undefined;
      await opened.db.$transaction(async (tx) => {
        // The pass locks the records it writes judgements for (FOR SHARE): this holds it there,
        // after it read the facts with the note.
        await tx.$executeRawUnsafe(`LOCK TABLE "UsageRecord" IN EXCLUSIVE MODE`);
        pass = runRejudgeRequest(opened.db, { modelId: KIMI });
        for (let waited = 0; ; waited += 20) {
          const [{ n }] = await opened.db.$queryRaw<Array<{ n: number }>>`
            SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
          if (n > 0) break;
          if (waited > 30_000) throw new Error("the pass never waited for the records' lock");
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        // Meanwhile the note is removed, and the removal asks for a re-judgement.
        await tx.$executeRaw`DELETE FROM "KnownQuantization" WHERE "modelId" = ${KIMI} AND tag = 'novita'`;
        await requestRejudge(tx, { modelId: KIMI }, "a known quantization was removed");
      }, { timeout: 60_000 });
      expect(await (pass as Promise<unknown>)).toMatchObject({ state: "done" });
      expect(await rows()).toEqual([]);
      // The first pass wrote the note into the reasons; only a second pass takes it out again.
      expect((await novitaReasons()).some((r) => TEAM_NOTE.test(r))).toBe(false);
      expect((await rejudge(opened.db, {})).written).toBe(0);
    }, 60_000);
  }
});
