import Decimal from "decimal.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db, OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { listPromptSets, uploadPromptSet } from "@/lib/probe/prompt-sets";
import { claimRun, processRun, type RunnerOptions } from "@/lib/probe/runner";
import { listChanges } from "@/lib/history/change-log";
import { probeSpend } from "@/lib/probe/spend";
import { cancelRun, createProbeRun, getRunResults, getRunView, type ProbeInput } from "@/lib/probe/runs";
import { latestVerdicts } from "@/lib/queries/probe-verdicts";
import { seedWatchedModels } from "@/lib/watched-models";
import { CREATE_MANY_ROWS } from "@/lib/db/one-connection";
import { injectFault, resetReplica, startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

// The probe runner against the replica with the real client, on both engines: a whole run and its
// verdicts, a crash and resume, the cost cap, cancel, faults during a run, one run per model.

const KIMI = "moonshotai/kimi-k2.5";

describe.each(engines)("probe runs on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  let smallSet: number;
  // A generous timeout: the replica shares this process (and its event loop) with the database.
  const client = (timeoutMs = 15_000) => createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs, maxAttempts: 1 });
  const runner: RunnerOptions = { baseDelayMs: 20, concurrencyPerProvider: 4 };

  async function create(input: Partial<ProbeInput>) {
    const outcome = await createProbeRun(opened.db, KIMI, { maxCostUsd: "2.00", ...input });
    if (outcome.kind !== "created") throw new Error(`${outcome.kind}: ${outcome.message}`);
    return outcome.run;
  }
  async function work(runId: number, options: RunnerOptions = {}, timeoutMs?: number) {
    const claimed = await claimRun(opened.db, 30, runId);
    if (!claimed) throw new Error(`run ${runId} could not be claimed`);
    return processRun(opened.db, client(timeoutMs), runId, claimed.lease, { ...runner, ...options });
  }
  const verdictsOf = async (runId: number) => Object.fromEntries((await getRunResults(opened.db, runId)).map((r) => [r.tag, r.verdict]));

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, [KIMI]);
    await runPollCycle(opened.db, createOpenRouterClient({ baseUrl: replica.baseUrl }), { trigger: "test" });
    const lines = Array.from({ length: 12 }, (_, i) => JSON.stringify({ prompt: `Probe prompt number ${i}: say something about the number ${i * 7}.` }));
    const upload = await uploadPromptSet(opened.db, "small", lines.join("\n"));
    if (!upload.ok) throw new Error("upload failed");
    smallSet = upload.id;
  }, 300_000);
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });
  beforeEach(() => resetReplica(replica.url));
  // A test that fails mid-run must not leave its model busy for the next.
  afterEach(() => opened.db.probeActiveRun.deleteMany());

  // Over 12 uploaded prompts to keep the test short (the built-in 41 take minutes here; the
  // benchmark runs those): every default endpoint, the expected verdict for each.
  it("a run with the default endpoints completes with the expected verdicts, costs and served providers", async () => {
    const created = await create({ prompts: { id: smallSet } });
    expect(created).toMatchObject({ status: "queued", reference: "moonshotai/int4", promptCount: 12 });
    expect(created.endpoints.map((e) => e.tag)).not.toContain("baseten/fp4"); // status -5 is not probed by default
    // Each request once is asserted below: a timeout would (rightly) resend, so give a loaded machine room.
    expect(await work(created.id, {}, 120_000)).toBe("done");
    const run = await getRunView(opened.db, created.id);
    expect(run).toMatchObject({ status: "done", progress: { done: created.progress.total, total: created.progress.total } });
    const reasons = (await getRunResults(opened.db, created.id)).map((r) => `${r.tag}: ${r.reason}`).join("\n");
    expect(await verdictsOf(created.id), reasons).toEqual({
      "moonshotai/int4": "reference",
      "chutes/int4": "equivalent", // the release with bf16 activations
      "siliconflow/int4": "unverifiable", // no logprobs: nothing can bound its divergence
      "atlas-cloud/int4": "equivalent", // reversed sums, heavy jumps: its own noise cancels
      "parasail/int4": "equivalent",
      fireworks: "differs", // the release re-quantized to NVFP4
      deepinfra: "equivalent",
      together: "prompt-format", // 7 more prompt tokens: another template
      novita: "not-pinned", // some answers came from DeepInfra
      // Venice serves the release re-quantized to INT4-g128 and lists no logprobs: never certified.
      venice: "unverifiable",
    });
    const results = await getRunResults(opened.db, created.id);
    const fireworks = results.find((r) => r.tag === "fireworks");
    expect(fireworks).toMatchObject({ method: "logprobs", promptsCompared: 12, promptTokensMatch: true, servedBy: ["Fireworks"] });
    const d = fireworks?.divergence;
    // NVFP4's true KL is about 0.06 nats/token (bench/lm-variants.md): the whole interval lies above Δ.
    expect(d?.deltaNats).toBe(1e-3);
    expect(d?.klNats.low).toBeGreaterThan(1e-3);
    expect(d?.klNats.estimate).toBeGreaterThan(0.02);
    expect(d?.klNats.estimate).toBeLessThan(0.2);
    expect(d?.positions).toBeGreaterThan(12); // many aligned positions per prompt, not one
    expect(d?.top1Agreement).toBeLessThan(1);
    expect(fireworks?.sampler).toEqual({ temperature: 0.6, top_p: 0.95, top_k: null, min_p: null, presence_penalty: 0, frequency_penalty: 0, thinking: false });
    expect(fireworks?.reason).toMatch(/^differs by more than Δ: KL 0\.\d{3} nats\/token, 95% interval \[0\.\d{3}, 0\.\d{3}\], Δ 1\.0e-3; A\/A -?\d\.\de-\d+; 12 prompts, \d+ positions, \d+ of them on-policy \(after the reference's sampled continuation\)$/);
    // On-policy reads (the reference's sampled continuation, cut and prefilled): Fireworks continues
    // it; Chutes and DeepInfra answer it as a new turn, which their prompt tokens show (read on the
    // greedy path only); Atlas Cloud refuses it with a 400, which is stored, never charged.
    expect(d?.prefill).toBe("continues");
    expect(d?.onPolicyPositions).toBeGreaterThan(3 * 12);
    for (const tag of ["chutes/int4", "deepinfra"]) {
      expect(results.find((r) => r.tag === tag)?.divergence, tag).toMatchObject({ prefill: "new-turn", onPolicyPositions: 0 });
    }
    expect(results.find((r) => r.tag === "atlas-cloud/int4")?.divergence).toMatchObject({ prefill: "refused", onPolicyPositions: 0 });
    expect(results.find((r) => r.tag === "parasail/int4")?.divergence?.prefill).toBe("continues");
    const chutes = results.find((r) => r.tag === "chutes/int4");
    expect(chutes?.divergence?.klNats.high).toBeLessThan(1e-3);
    expect(chutes?.divergence?.aaKlNats.high).toBeLessThan(2.5e-4);
    expect(results.find((r) => r.tag === "novita")?.servedBy).toEqual(["DeepInfra", "Novita"]);
    expect(results.find((r) => r.tag === "venice")?.method).toBe("samples");
    expect(results.find((r) => r.tag === "venice")?.divergence).toBeNull();
    // The run's cost is the exact sum of the answers' costs, and of the results' costs.
    const answers = await opened.db.probeRequest.findMany({ where: { runId: created.id } });
    const sum = answers.reduce((s, a) => s.plus(a.costUsd?.toString() ?? "0"), new Decimal(0));
    expect(run?.costUsd).toBe(sum.toFixed());
    expect(results.reduce((s, r) => s.plus(r.costUsd), new Decimal(0)).toFixed()).toBe(sum.toFixed());
    // The estimate is typical token counts, not a bound (another template, a fallback's prices);
    // the worst cases the cap is checked against are.
    const worst = answers.reduce((s, a) => s.plus(a.worstCaseUsd.toString()), new Decimal(0));
    expect(new Decimal(run?.costUsd ?? "0").lessThanOrEqualTo(worst)).toBe(true);
    // Every request was sent exactly once (its seed is unique), reasoning disabled, pinned; those the
    // endpoint refused (Atlas Cloud's and Together's prefilled reads: a 400) are errors, never charged.
    const refused = answers.filter((a) => a.status === "error");
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) {
      expect(["atlas-cloud/int4", "together"]).toContain(a.tag);
      expect(a.cut).toBe(1);
      expect(a.error).toContain("trailing assistant message");
      expect(a.costUsd).toBeNull();
    }
    expect(replica.state.chat.calls).toHaveLength(answers.length - refused.length);
    expect((await latestVerdicts(opened.db, KIMI)).find((v) => v.tag === "fireworks")?.verdict).toBe("differs");
  }, 45_000); // about 400 requests: 8 s in a CI run, 18 s beside a second one

  it("lists the prompt sets a run can use: built-in first, then uploads with their count and version; a bad upload stores nothing", async () => {
    const refused = await uploadPromptSet(opened.db, "bad", '{"prompt": "ok"}\nnot json');
    expect(refused).toEqual({ ok: false, errors: [{ line: 2, message: "not valid JSON" }] });
    const sets = await listPromptSets(opened.db);
    expect(sets[0]).toMatchObject({ id: "builtin", name: "Built-in", createdAt: null });
    expect(sets[0].prompts).toBeGreaterThanOrEqual(40);
    expect(sets.slice(1)).toEqual([{ id: smallSet, name: "small", version: expect.stringMatching(/^[0-9a-f]{12}$/), prompts: 12, createdAt: expect.any(String) }]);
  });

  it("one active run per model: a second is refused while the first is queued; a cap under the estimate is refused", async () => {
    const first = await create({ prompts: { id: smallSet }, endpoints: ["chutes/int4"] });
    const second = await createProbeRun(opened.db, KIMI, { maxCostUsd: "2.00", prompts: { id: smallSet } });
    expect(second).toMatchObject({ kind: "busy" });
    expect((await cancelRun(opened.db, first.id))?.status).toBe("cancelled");
    // Two started at once: one is created and the other is told the model is busy (whether it
    // lost at the check or inside the transaction), never an error.
    const both = await Promise.all([1, 2].map(() => createProbeRun(opened.db, KIMI, { maxCostUsd: "2.00", prompts: { id: smallSet }, endpoints: ["chutes/int4"] })));
    expect(both.map((o) => o.kind).sort()).toEqual(["busy", "created"]);
    const winner = both.find((o) => o.kind === "created");
    expect((await cancelRun(opened.db, winner?.kind === "created" ? winner.run.id : -1))?.status).toBe("cancelled");
    const tooSmall = await createProbeRun(opened.db, KIMI, { maxCostUsd: "0.000001" });
    expect(tooSmall).toMatchObject({ kind: "over-cap" });
    expect(tooSmall.kind === "over-cap" && new Decimal(tooSmall.estimateUsd).greaterThan("0.000001")).toBe(true);
  });

  it("a run over 500 uploaded prompts stores its tens of thousands of planned requests in sending order, one statement at a time", async () => {
    // Prisma splits a createMany over PostgreSQL's bind parameters and sends the parts at once on the
    // transaction's one connection: tests/helpers/one-query-at-a-time.ts fails the run on that.
    const lines = Array.from({ length: 500 }, (_, i) => JSON.stringify({ prompt: `Prompt ${i}: one line about the number ${i}.` }));
    const upload = await uploadPromptSet(opened.db, "large", lines.join("\n"));
    if (!upload.ok) throw new Error("upload failed");
    const created = await create({ prompts: { id: upload.id }, maxCostUsd: "100" });
    const rows = await opened.db.probeRequest.findMany({ where: { runId: created.id }, orderBy: { id: "asc" }, select: { promptIndex: true } });
    expect(rows.length).toBe(created.progress.total);
    expect(rows.length).toBeGreaterThan(10 * CREATE_MANY_ROWS);
    const { design } = await opened.db.probeRun.findUniqueOrThrow({ where: { id: created.id }, select: { design: true } });
    const waves = rows.map((r) => (design as { waveOfPrompt: number[] }).waveOfPrompt[r.promptIndex]);
    expect(waves).toEqual([...waves].sort((a, b) => a - b)); // the waves in order, as the runner sends them
    expect((await cancelRun(opened.db, created.id))?.status).toBe("cancelled");
  }, 60_000);

  it("a worker that dies mid-run: another resumes it and never resends a request whose answer is stored", async () => {
    const created = await create({ prompts: { id: smallSet }, endpoints: ["chutes/int4", "fireworks"] });
    const crash = new AbortController();
    const outcome = await work(created.id, { onStored: (n) => n >= 20 && crash.abort(), signal: crash.signal });
    expect(outcome).toBe("abandoned");
    const storedBefore = await opened.db.probeRequest.findMany({ where: { runId: created.id, status: "done" } });
    expect(storedBefore.length).toBeGreaterThanOrEqual(20);
    expect(storedBefore.length).toBeLessThan(created.progress.total);
    // The dead worker's lease holds the run until it expires.
    expect(await claimRun(opened.db, 30, created.id)).toBeNull();
    await opened.db.probeRun.update({ where: { id: created.id }, data: { leaseUntil: new Date(Date.now() - 1000) } });
    const callsBeforeResume = replica.state.chat.calls.length;
    expect(await work(created.id)).toBe("done");
    // (Before the crash a request may have been sent twice: a timeout on a busy machine is retried.)
    const sentAfterResume = new Set(replica.state.chat.calls.slice(callsBeforeResume).map((c) => `${c.tag}|${c.seed}`));
    expect(sentAfterResume.size).toBeGreaterThan(0);
    for (const answer of storedBefore) expect(sentAfterResume.has(`${answer.tag}|${answer.seed}`), `request ${answer.id}`).toBe(false);
    expect(await verdictsOf(created.id)).toEqual({ "moonshotai/int4": "reference", "chutes/int4": "equivalent", fireworks: "differs" });
  });

  it("the sequential design: after the first wave the clear cases are decided and their later requests never sent, also across a worker's death at the wave's end", async () => {
    const lines = Array.from({ length: 36 }, (_, i) => JSON.stringify({ prompt: `Wave prompt ${i}: write a line about the number ${i * 13}.` }));
    const upload = await uploadPromptSet(opened.db, "waves", lines.join("\n"));
    if (!upload.ok) throw new Error("upload failed");
    const created = await create({ prompts: { id: upload.id }, endpoints: ["chutes/int4", "fireworks"] });
    // 36 prompts: three waves of 12; the reference 9 requests a prompt (2 + 2 from the prompt, a
    // sampled draft, 2 + 2 after it), each endpoint 4 (2 from the prompt, 2 after the draft).
    expect(created.progress.total).toBe(36 * 17);
    const stored = await opened.db.probeRun.findUniqueOrThrow({ where: { id: created.id } });
    const design = stored.design as { waveOfPrompt: number[]; alphas: number[] };
    expect(design.alphas).toEqual([0.002, 0.008, 0.04]);
    const waveOf = (promptIndex: number) => design.waveOfPrompt[promptIndex];
    // The worker dies as the first wave's last answer is stored, before it can look.
    const crash = new AbortController();
    expect(await work(created.id, { onStored: (n) => n >= 12 * 17 && crash.abort(), signal: crash.signal }, 120_000)).toBe("abandoned");
    const sentBefore = replica.state.chat.calls.length;
    const firstWave = await opened.db.probeRequest.findMany({ where: { runId: created.id } });
    // Nothing of a later wave went out before the first was settled.
    expect(firstWave.filter((r) => r.status !== "pending").every((r) => waveOf(r.promptIndex) === 0)).toBe(true);
    expect(firstWave.filter((r) => waveOf(r.promptIndex) === 0).every((r) => r.status === "done")).toBe(true);
    await opened.db.probeRun.update({ where: { id: created.id }, data: { leaseUntil: new Date(Date.now() - 1000) } });
    expect(await work(created.id, {}, 120_000)).toBe("done");
    const requests = await opened.db.probeRequest.findMany({ where: { runId: created.id } });
    const results = await getRunResults(opened.db, created.id);
    const chutes = results.find((r) => r.tag === "chutes/int4");
    // bf16 activations (true KL Δ/70) are clear after 12 prompts, even at the first look's 99.8%.
    expect(chutes).toMatchObject({ verdict: "equivalent", promptsCompared: 12 });
    expect(chutes?.divergence?.look).toEqual({ at: 1, of: 3, prompts: 12 });
    expect(chutes?.divergence?.confidence).toBeCloseTo(0.998, 12);
    expect(chutes?.reason).toMatch(/^within Δ: KL .* 99\.8% interval .*; decided early, at look 1 of 3 \(12 of 36 prompts\): its later requests were not sent$/);
    expect(requests.filter((r) => r.tag === "chutes/int4" && waveOf(r.promptIndex) > 0).every((r) => r.status === "skipped")).toBe(true);
    const fireworks = results.find((r) => r.tag === "fireworks");
    expect(fireworks?.verdict).toBe("differs");
    const fireworksLook = fireworks?.divergence?.look?.at ?? 0;
    expect(fireworks?.promptsCompared).toBe(12 * fireworksLook);
    // Every skipped request: never sent (no call with its seed), no answer, no cost.
    const skipped = requests.filter((r) => r.status === "skipped");
    expect(skipped.length).toBeGreaterThanOrEqual(24 * 4); // chutes's later waves at least
    const sentSeeds = new Set(replica.state.chat.calls.map((c) => `${c.tag}|${c.seed}`));
    for (const r of skipped) {
      expect(sentSeeds.has(`${r.tag}|${r.seed}`), `request ${r.id}`).toBe(false);
      expect(r.costUsd).toBeNull();
    }
    if (fireworksLook === 1) {
      // Both decided at the first look: the resumed worker looked and sent nothing more.
      expect(replica.state.chat.calls.length).toBe(sentBefore);
      expect(skipped).toHaveLength(36 * 17 - 12 * 17);
    }
    const run = await getRunView(opened.db, created.id);
    expect(run?.progress).toEqual({ done: 36 * 17, total: 36 * 17, skipped: skipped.length });
    const sum = requests.reduce((t, r) => t.plus(r.costUsd?.toString() ?? "0"), new Decimal(0));
    expect(run?.costUsd).toBe(sum.toFixed());
  }, 30_000); // 204-612 requests: 1.4-1.7 s alone on both engines here (before the on-policy reads)

  it("a crash signalled while the worker awaits the database (its cancel check) writes nothing after it: no look, no request marked skipped, none sent", async () => {
    // A CI run once found the worker, crashed by the signal as the first wave's last answer was
    // stored, still taking the look it had reached (marking later requests skipped) because the
    // signal came while it awaited the cancel flag. Here the signal comes exactly then.
    const lines = Array.from({ length: 36 }, (_, i) => JSON.stringify({ prompt: `Crash prompt ${i}: name a colour and the number ${i * 11}.` }));
    const upload = await uploadPromptSet(opened.db, "crash-waves", lines.join("\n"));
    if (!upload.ok) throw new Error("upload failed");
    const created = await create({ prompts: { id: upload.id }, endpoints: ["chutes/int4"] });
    const stored = await opened.db.probeRun.findUniqueOrThrow({ where: { id: created.id } });
    const waveOf = (promptIndex: number) => (stored.design as { waveOfPrompt: number[] }).waveOfPrompt[promptIndex];
    const all = await opened.db.probeRequest.findMany({ where: { runId: created.id } });
    const firstWave = all.filter((r) => waveOf(r.promptIndex) === 0).length;
    expect(firstWave).toBe(12 * 13); // the reference's 9 requests a prompt and chutes's 4
    const crash = new AbortController();
    let firstWaveStored = false;
    // The cancel check answered after the first wave's last answer is stored: the signal comes
    // before that turn of the loop goes on (setImmediate lets the answer's own bookkeeping end).
    const db = opened.db.$extends({
      query: {
        probeRun: {
          async findUnique({ args, query }) {
            const row = await query(args);
            if (firstWaveStored && !crash.signal.aborted) {
              await new Promise((resolve) => setImmediate(resolve));
              crash.abort();
            }
            return row;
          },
        },
      },
    }) as unknown as Db;
    const claimed = await claimRun(opened.db, 30, created.id);
    if (!claimed) throw new Error("not claimed");
    const callsBefore = replica.state.chat.calls.length;
    const outcome = await processRun(db, client(120_000), created.id, claimed.lease, {
      ...runner,
      signal: crash.signal,
      onStored: (n) => {
        if (n >= firstWave) firstWaveStored = true;
      },
    });
    expect(outcome).toBe("abandoned");
    expect(crash.signal.aborted).toBe(true);
    const after = await opened.db.probeRequest.findMany({ where: { runId: created.id } });
    expect(after.filter((r) => r.status === "skipped")).toEqual([]);
    expect(after.filter((r) => waveOf(r.promptIndex) === 0).every((r) => r.status === "done")).toBe(true);
    expect(after.filter((r) => waveOf(r.promptIndex) > 0).every((r) => r.status === "pending")).toBe(true);
    // Nothing of the second wave reached the replica.
    const firstWaveSeeds = new Set(after.filter((r) => waveOf(r.promptIndex) === 0).map((r) => `${r.tag}|${r.seed}`));
    const sent = replica.state.chat.calls.slice(callsBefore);
    expect(sent.length).toBeGreaterThanOrEqual(firstWave);
    expect(sent.filter((c) => !firstWaveSeeds.has(`${c.tag}|${c.seed}`))).toEqual([]);
    await cancelRun(opened.db, created.id);
  }, 30_000);

  it("the cost cap stops a run before any request that could pass it, and says so", async () => {
    const estimate = await create({ prompts: { id: smallSet }, endpoints: ["chutes/int4"] });
    await cancelRun(opened.db, estimate.id);
    // A cap at the estimate passes the check before the run, but the worst cases (every prompt
    // byte a token) cannot all fit under it.
    const created = await create({ prompts: { id: smallSet }, endpoints: ["chutes/int4"], maxCostUsd: estimate.estimateUsd });
    // The replica's answers often end before max_tokens (its end token), so a run can spend well
    // under its estimate; a cap of a third of the estimate cannot hold the run. The API refuses a
    // cap under the estimate at creation, so it is set on the stored run.
    const third = new Decimal(estimate.estimateUsd).div(3).toDecimalPlaces(6).toString();
    await opened.db.probeRun.update({ where: { id: created.id }, data: { maxCostUsd: third } });
    expect(await work(created.id)).toBe("failed");
    const run = await getRunView(opened.db, created.id);
    expect(run?.error).toMatch(/^Stopped at the cost cap: the next request could cost up to \$0\.\d+, and \$0\.\d+ is spent or in flight of the \$\d+\.\d\d cap$/);
    expect(new Decimal(run?.costUsd ?? "9").lessThanOrEqualTo(third)).toBe(true);
    expect(run?.progress.done).toBeLessThan(run?.progress.total ?? 0);
    expect(run?.progress.done).toBeGreaterThan(0);
    expect((await getRunResults(opened.db, created.id)).find((r) => r.tag === "chutes/int4")?.verdict).toBe("cannot tell");
  });

  it("cancel stops a running run; what was answered is kept", async () => {
    const created = await create({ prompts: { id: smallSet }, endpoints: ["chutes/int4", "fireworks"] });
    // The runner awaits onStored, so the cancel is committed before it reads the flag again.
    const outcome = await work(created.id, { onStored: (n) => (n === 10 ? cancelRun(opened.db, created.id) : undefined) });
    expect(outcome).toBe("cancelled");
    const run = await getRunView(opened.db, created.id);
    expect(run?.status).toBe("cancelled");
    expect(run?.progress.done).toBeGreaterThanOrEqual(10);
    expect(run?.progress.done).toBeLessThan(run?.progress.total ?? 0);
    expect(await opened.db.probeActiveRun.count()).toBe(0);
  });

  it("429 with Retry-After, 500 and a hang during a run: retried, recorded, and the run still decides", async () => {
    await injectFault(replica.url, { kind: "429", path: "chat/completions@chutes/int4", retryAfter: 1, times: 2 });
    await injectFault(replica.url, { kind: "500", path: "chat/completions@fireworks", times: 2 });
    await injectFault(replica.url, { kind: "hang", path: "chat/completions@moonshotai/int4", times: 1 });
    const created = await create({ prompts: { id: smallSet }, endpoints: ["chutes/int4", "fireworks"] });
    expect(await work(created.id, {}, 4_000)).toBe("done");
    const retried = await opened.db.probeRequest.findMany({ where: { runId: created.id, attempts: { gt: 1 } } });
    const byTag = (tag: string) => retried.filter((r) => r.tag === tag);
    expect(byTag("chutes/int4").length).toBeGreaterThanOrEqual(1);
    expect(byTag("chutes/int4").every((r) => r.status === "done" && r.error === null)).toBe(true);
    expect(byTag("fireworks").length).toBeGreaterThanOrEqual(1);
    expect(byTag("moonshotai/int4").length).toBeGreaterThanOrEqual(1);
    // A hang may have been served and charged: its worst case is kept against the cap.
    const run = await opened.db.probeRun.findUniqueOrThrow({ where: { id: created.id } });
    expect(new Decimal(run.uncertainUsd.toString()).greaterThanOrEqualTo(byTag("moonshotai/int4")[0].worstCaseUsd.toString())).toBe(true);
    expect(await verdictsOf(created.id)).toEqual({ "moonshotai/int4": "reference", "chutes/int4": "equivalent", fireworks: "differs" });
  });

  it("a verdict that changed since the last completed probe goes into the change log; probe spend sums every run", async () => {
    const previous = await opened.db.probeRun.findFirst({ where: { modelId: KIMI, status: "done" }, orderBy: { id: "desc" } });
    expect(previous).not.toBeNull();
    // As if the previous probe had found Fireworks matching.
    await opened.db.probeResult.updateMany({ where: { runId: previous?.id, tag: "fireworks" }, data: { verdict: "matches" } });
    const created = await create({ prompts: { id: smallSet }, endpoints: ["fireworks"] });
    expect(await work(created.id)).toBe("done");
    const changes = await listChanges(opened.db, KIMI, { kind: "probe" });
    expect(changes?.changes[0]).toMatchObject({ kind: "probe", tag: "fireworks", provider: "Fireworks", before: "matches", after: "differs" });
    const runs = await opened.db.probeRun.findMany({ where: { modelId: KIMI } });
    const total = runs.reduce((s, r) => s.plus(r.costUsd.toString()), new Decimal(0));
    const spend = await probeSpend(opened.db);
    expect(spend).toEqual([expect.objectContaining({ modelId: KIMI, runs: runs.length })]);
    expect(new Decimal(spend[0].costUsd).equals(total)).toBe(true);
  });
});
