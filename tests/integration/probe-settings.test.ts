import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { uploadPromptSet } from "@/lib/probe/prompt-sets";
import { probeSettingsInputSchema, readProbeSettings, resetProbeSettings, saveProbeSettings } from "@/lib/probe/model-settings";
import { claimRun, processRun } from "@/lib/probe/runner";
import { cancelRun, createProbeRun, getRunResults } from "@/lib/probe/runs";
import { seedWatchedModels } from "@/lib/watched-models";
import { startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

// A team's own margin Δ and sampler per model, on both engines: stored, copied by the next run,
// sent on its requests (as the replica received them) and used for its verdicts; a run already
// made keeps what it was made with; bad values are refused naming the field.

const KIMI = "moonshotai/kimi-k2.5";
const MOONSHOT = { temperature: 0.6, top_p: 0.95, top_k: null, min_p: null, presence_penalty: 0, frequency_penalty: 0, thinking: false };

describe.each(engines)("probe margin and sampler per model on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  let smallSet: number;

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, [KIMI]);
    await runPollCycle(opened.db, createOpenRouterClient({ baseUrl: replica.baseUrl }), { trigger: "test" });
    const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({ prompt: `Settings prompt ${i}: tell me about the number ${i * 11}.` }));
    const upload = await uploadPromptSet(opened.db, "settings", lines.join("\n"));
    if (!upload.ok) throw new Error("upload failed");
    smallSet = upload.id;
  }, 300_000);
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });
  afterEach(() => opened.db.probeActiveRun.deleteMany());

  it("without a team setting, Kimi K2.5 uses Moonshot's documented sampler and Δ 1e-3", async () => {
    expect(await readProbeSettings(opened.db, KIMI)).toEqual({
      modelId: KIMI,
      source: "default",
      deltaNats: 1e-3,
      sampler: MOONSHOT,
      defaults: { deltaNats: 1e-3, sampler: MOONSHOT },
      updatedAt: null,
    });
  });

  it("refuses bad values naming the field, and stores nothing", () => {
    const good = { deltaNats: 0.002, temperature: 0.7, top_p: 0.9, top_k: null, min_p: null };
    const problems = (input: unknown) => {
      const parsed = probeSettingsInputSchema.safeParse(input);
      return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(problems(good)).toEqual([]);
    expect(problems({ ...good, deltaNats: 0.5 })).toEqual([
      "deltaNats: must be at most 0.1 nats/token: a larger margin would certify a 4-bit re-quantization as equivalent",
    ]);
    expect(problems({ ...good, deltaNats: 0 })).toEqual([
      "deltaNats: must be at least 0.00001 nats/token: below that, faithful endpoints' numerics alone would exceed it",
    ]);
    expect(problems({ ...good, temperature: 0 })).toEqual(["temperature: must be more than 0 and at most 2 (the probe's sampled answers need a temperature above 0)"]);
    expect(problems({ ...good, top_k: 2.5 })).toEqual(["top_k: must be a whole number or null"]);
    expect(problems({ ...good, min_p: 1 })).toEqual(["min_p: must be at least 0 and less than 1, or null for none"]);
    expect(problems({ ...good, presence_penalty: 2.5 })).toEqual(["presence_penalty: must be between -2 and 2 (0: no penalty)"]);
    expect(problems({ ...good, frequency_penalty: -3 })).toEqual(["frequency_penalty: must be between -2 and 2 (0: no penalty)"]);
    expect(problems({ ...good, frequency_penalty: null })).toEqual(["frequency_penalty: must be a number (a penalty)"]);
    // Left out, a penalty is 0 (a client written before they were settable keeps working).
    expect(probeSettingsInputSchema.parse(good)).toMatchObject({ presence_penalty: 0, frequency_penalty: 0 });
    expect(problems({ ...good, presence_penalty: -2, frequency_penalty: 2 })).toEqual([]);
    expect(problems({ ...good, thinking: true })).toEqual([
      "thinking: the probe compares answers without reasoning, so it runs with thinking off; thinking-enabled probing is not supported yet",
    ]);
    expect(problems({ ...good, top_p: "0.9" })).toEqual(["top_p: must be a number (a probability)"]);
  });

  it("a saved setting is copied by the next run, sent on its requests and decides its verdicts; a reset goes back to the defaults", async () => {
    const saved = await saveProbeSettings(opened.db, KIMI, { deltaNats: 0.1, temperature: 0.7, top_p: 0.9, top_k: 40, min_p: null, presence_penalty: 0.3 });
    const teamSampler = { temperature: 0.7, top_p: 0.9, top_k: 40, min_p: null, presence_penalty: 0.3, frequency_penalty: 0, thinking: false };
    expect(saved).toMatchObject({ source: "team", deltaNats: 0.1, sampler: teamSampler });
    expect(saved.updatedAt).not.toBeNull();

    // Fireworks serves the release re-quantized to NVFP4 (about 0.06 nats/token against the
    // reference): more than the default Δ, under the team's 0.1.
    const outcome = await createProbeRun(opened.db, KIMI, { maxCostUsd: "1.00", prompts: { id: smallSet }, endpoints: ["fireworks"] });
    if (outcome.kind !== "created") throw new Error(`${outcome.kind}: ${outcome.message}`);
    const runId = outcome.run.id;
    const stored = await opened.db.probeRun.findUniqueOrThrow({ where: { id: runId } });
    expect(stored.deltaNats).toBe(0.1);
    expect(stored.sampler).toEqual(teamSampler);

    // A later change does not alter the run already made.
    await saveProbeSettings(opened.db, KIMI, { deltaNats: 0.05, temperature: 1, top_p: 1, top_k: null, min_p: null });
    const callsBefore = replica.state.chat.calls.length;
    const claimed = await claimRun(opened.db, 30, runId);
    if (!claimed) throw new Error("could not claim");
    const client = createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 120_000, maxAttempts: 1 });
    expect(await processRun(opened.db, client, runId, claimed.lease, { baseDelayMs: 20, concurrencyPerProvider: 4 })).toBe("done");

    // What the replica received: the run's sampler on every request (its presence penalty too; the
    // frequency penalty 0 is not sent, which the replica reads as 0), the reads at the greedy path's
    // temperature 0, the reference's sampled drafts (one per prompt) at the run's own temperature.
    const calls = replica.state.chat.calls.slice(callsBefore);
    expect(calls.length).toBeGreaterThan(0);
    const samplers = calls.map((c) => JSON.stringify(c.sampler));
    const received = (temperature: number) => JSON.stringify({ temperature, top_p: 0.9, top_k: 40, min_p: 0, presence_penalty: 0.3, frequency_penalty: 0 });
    expect(new Set(samplers)).toEqual(new Set([received(0), received(0.7)]));
    expect(samplers.filter((x) => x.includes('"temperature":0.7'))).toHaveLength(10);

    const results = await getRunResults(opened.db, runId);
    const fireworks = results.find((r) => r.tag === "fireworks");
    expect(fireworks?.divergence?.deltaNats).toBe(0.1);
    expect(fireworks?.sampler).toEqual(teamSampler);
    const kl = fireworks?.divergence?.klNats;
    // Decided against 0.1, not the default 1e-3: the whole interval is above 1e-3, so with the
    // default the verdict would have been `differs`.
    expect(kl?.low).toBeGreaterThan(1e-3);
    expect(kl?.high).toBeLessThan(0.1);
    expect(fireworks?.verdict).toBe("equivalent");
    expect(fireworks?.reason).toMatch(/^within Δ: KL 0\.0\d{2} nats\/token, 95% interval \[0\.0\d{2}, 0\.0\d{2}\], Δ 0\.100;/);

    const reset = await resetProbeSettings(opened.db, KIMI);
    expect(reset).toMatchObject({ source: "default", deltaNats: 1e-3, sampler: MOONSHOT, updatedAt: null });
    const next = await createProbeRun(opened.db, KIMI, { maxCostUsd: "1.00", prompts: { id: smallSet }, endpoints: ["fireworks"] });
    if (next.kind !== "created") throw new Error(`${next.kind}: ${next.message}`);
    expect((await opened.db.probeRun.findUniqueOrThrow({ where: { id: next.run.id } })).deltaNats).toBe(1e-3);
    await cancelRun(opened.db, next.run.id);
  });
});
