import Decimal from "decimal.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient, type OpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { uploadPromptSet } from "@/lib/probe/prompt-sets";
import { claimRun, processRun } from "@/lib/probe/runner";
import { createProbeRun, getRunResults } from "@/lib/probe/runs";
import { chooseDatasetView } from "@/lib/provenance/choices";
import { exportStream, judgementOf } from "@/lib/provenance/export";
import { PROVENANCE_CLASSES } from "@/lib/provenance/judge";
import { provenanceSummary } from "@/lib/provenance/queries";
import { rejudge } from "@/lib/provenance/rejudge";
import { deleteKnownQuantization, setKnownQuantization } from "@/lib/known-quantization";
import { createView, updateView } from "@/lib/saved-views";
import { importUsage } from "@/lib/usage/import";
import { DEFAULT_PLAN } from "@/lib/view-state/budget";
import { seedWatchedModels } from "@/lib/watched-models";
import { requantizeReplica, startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";
import { countedFromRecords, keptByTally } from "../helpers/tally-judge";
import { storedReasons } from "../helpers/stored-reasons";
import { putViewAlert } from "@/lib/alerts/view-settings";

// Issue 21 end to end: a pipeline generates through the real client against the replica, under a
// saved view chosen for its dataset, while the facts move: a probe finds Chutes and Parasail
// equivalent, Chutes is re-quantized and the next probe finds it differs, the view then drops
// Parasail, and Novita's calls are partly served by DeepInfra (the replica's fallback), which the
// view never allowed. Each generation's expected class is written here from what the test did.

const KIMI = "moonshotai/kimi-k2.5";

interface Generated {
  line: string;
  id: string;
  provider: string;
  expected: string;
  why: RegExp;
}

describe.each(engines)("provenance of a pipeline's generations on the $name engine", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  let client: OpenRouterClient;
  let slug: string;
  let prompts: number;
  // Deterministic prompts: which of Novita's calls the replica hands to DeepInfra follows from them.
  let sequence = 0;
  const first: Generated[] = [];
  const second: Generated[] = [];

  const probe = async (tags: string[]) => {
    const outcome = await createProbeRun(opened.db, KIMI, { maxCostUsd: "2.00", prompts: { id: prompts }, endpoints: tags });
    if (outcome.kind !== "created") throw new Error(`${outcome.kind}: ${outcome.message}`);
    const claimed = await claimRun(opened.db, 30, outcome.run.id);
    if (!claimed) throw new Error("not claimed");
    expect(await processRun(opened.db, client, outcome.run.id, claimed.lease, { baseDelayMs: 20, concurrencyPerProvider: 4 })).toBe("done");
    return Object.fromEntries((await getRunResults(opened.db, outcome.run.id)).map((r) => [r.tag, r.verdict]));
  };
  /** One pipeline call pinned to a provider, kept as the pipeline logs it (its own clock, ms). */
  const generate = async (only: string, n: number): Promise<Array<{ line: string; id: string; provider: string }>> => {
    const out = [];
    for (let i = 0; i < n; i++) {
      const { data: c } = await client.chat({
        model: KIMI,
        messages: [{ role: "user", content: `Training sample ${++sequence} for ${only}` }],
        max_tokens: 8,
        temperature: 1,
        provider: { only: [only], allow_fallbacks: true },
      });
      const line = JSON.stringify({
        id: c.id,
        provider: c.provider,
        model: c.model,
        dataset: "B5",
        input_tokens: c.usage?.prompt_tokens,
        output_tokens: c.usage?.completion_tokens,
        cost: c.usage?.cost,
        occurred_at: new Date().toISOString(),
      });
      out.push({ line, id: c.id, provider: String(c.provider) });
    }
    return out;
  };
  const classes = async () => {
    const reasonsOf = await storedReasons(opened.db);
    return Object.fromEntries(
      (await opened.db.usageRecord.findMany({ include: { judgement: true } })).map((r) => [r.dedupeKey.slice(3), { class: r.judgement?.class, reasons: reasonsOf(r.judgement), at: r.judgement?.judgedAt.getTime() }]),
    );
  };
  const check = async (list: Generated[]) => {
    const got = await classes();
    for (const g of list) {
      expect({ id: g.id, provider: g.provider, class: got[g.id]?.class }).toEqual({ id: g.id, provider: g.provider, class: g.expected });
      expect(got[g.id].reasons.join("\n")).toMatch(g.why);
    }
  };

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    client = createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 15_000, maxAttempts: 1 });
    await seedWatchedModels(opened.db, [KIMI]);
    await runPollCycle(opened.db, createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 2000, baseDelayMs: 5, maxAttempts: 2 }), { trigger: "test" });
    const lines = Array.from({ length: 12 }, (_, i) => JSON.stringify({ prompt: `Probe prompt number ${i}: say something about the number ${i * 7}.` }));
    const upload = await uploadPromptSet(opened.db, "provenance", lines.join("\n"));
    if (!upload.ok) throw new Error("upload failed");
    prompts = upload.id;
    // DeepInfra is excluded by hand from the start: the allow-list never names it. xdiff=false keeps
    // an endpoint the probe finds to differ in the view, so the verdict change is seen on its own.
    slug = (await createView(opened.db, { name: "Pipeline", modelId: KIMI, query: "xp=deepinfra&xdiff=false" })).slug;
    expect(await chooseDatasetView(opened.db, { dataset: "B5", view: slug })).toEqual({ ok: true });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });

  it("judges the first import: never probed, verified, and the fallback leak", async () => {
    for (const g of await generate("chutes", 2)) first.push({ ...g, expected: "unverified", why: /never probed before the generation/ });
    expect(await probe(["chutes/int4", "parasail/int4"])).toMatchObject({ "chutes/int4": "equivalent", "parasail/int4": "equivalent" });
    for (const g of await generate("chutes", 2)) first.push({ ...g, expected: "trusted", why: /verified equivalent by the probe before/ });
    for (const g of await generate("parasail", 2)) first.push({ ...g, expected: "trusted", why: /verified equivalent by the probe before/ });
    const novita = await generate("novita", 9);
    for (const g of novita) {
      first.push(
        g.provider === "DeepInfra"
          ? { ...g, expected: "excluded", why: /view “Pipeline” excluded deepinfra: by hand/ }
          : { ...g, expected: "unverified", why: /view “Pipeline” included novita[\s\S]*never probed/ },
      );
    }
    expect(novita.some((g) => g.provider === "DeepInfra") && novita.some((g) => g.provider === "Novita")).toBe(true);
    const result = await importUsage(opened.db, "day-1.jsonl", first.map((g) => g.line).join("\n"));
    expect(result).toMatchObject({ accepted: first.length, rejected: 0 });
    await check(first);
    // The import judged its records as it inserted them, exactly as a pass over them does: a pass now writes nothing.
    expect(await rejudge(opened.db, { dataset: "B5" })).toMatchObject({ judged: first.length, written: 0 });
  });

  it("a later verdict differs: the generations it touches turn suspect, the rest stay, and the view's alert says so once", async () => {
    await putViewAlert(opened.db, slug, { enabled: true });
    await requantizeReplica(replica.url, "chutes/int4", "nvfp4");
    expect(await probe(["chutes/int4"])).toMatchObject({ "chutes/int4": "differs" });
    const turned = first.filter((g) => g.provider === "Chutes" && g.expected === "trusted");
    for (const g of turned) Object.assign(g, { expected: "suspect", why: /a later probe \(run \d+, .*\) found it differs/ });
    await check(first);
    // One event for the pass, with what the team must drop: counted here from the pipeline's own lines.
    const lines = turned.map((g) => JSON.parse(g.line) as { output_tokens: number; cost: number });
    const said = async () => opened.db.alertEvent.findMany({ where: { kind: "provenance" }, orderBy: { id: "asc" } });
    const events = await said();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ viewSlug: slug, viewName: "Pipeline", modelId: KIMI });
    expect(events[0].summary).toMatch(new RegExp(`^${turned.length} generations judged trusted under “Pipeline” turned suspect \\(${lines.reduce((n, l) => n + l.output_tokens, 0)} output tokens, \\$`));
    const data = events[0].data as { samples: number; outputTokens: string; costUsd: string; old: string; new: string };
    expect(data).toMatchObject({ samples: turned.length, outputTokens: String(lines.reduce((n, l) => n + l.output_tokens, 0)), old: "trusted", new: "suspect" });
    expect(new Decimal(data.costUsd).equals(lines.reduce((sum, l) => sum.plus(String(l.cost)), new Decimal(0)))).toBe(true);
    // A pass after it turns nothing, and says nothing.
    await rejudge(opened.db, { dataset: "B5" });
    expect(await said()).toHaveLength(1);
  });

  it("turns a pass counted but did not say (it died) are said by the next pass, once; with the condition off, dropped unsaid", async () => {
    const said = async () => opened.db.alertEvent.findMany({ where: { kind: "provenance" }, orderBy: { id: "asc" } });
    const before = (await said()).length;
    const leave = () => opened.db.$executeRaw`
      INSERT INTO "ProvenanceSuspectPending" ("viewId", samples, "inputTokens", "outputTokens", "costUsd", since)
      VALUES ((SELECT id FROM "SavedView" WHERE slug = ${slug}), 3, 30, 300, 0.003, now())`;
    await leave();
    await rejudge(opened.db, { dataset: "B5" });
    const events = await said();
    expect(events).toHaveLength(before + 1);
    expect(events[before].data).toMatchObject({ samples: 3, outputTokens: "300", costUsd: "0.003" });
    await rejudge(opened.db, { dataset: "B5" });
    expect(await said()).toHaveLength(before + 1);
    await putViewAlert(opened.db, slug, { provenanceSuspect: false });
    await leave();
    await rejudge(opened.db, { dataset: "B5" });
    expect(await said()).toHaveLength(before + 1);
    expect(await opened.db.provenanceSuspectPending.count()).toBe(0);
    await putViewAlert(opened.db, slug, { provenanceSuspect: true });
  });

  it("the view drops Parasail: what follows within the grace is suspect, with the row's reasons", async () => {
    await updateView(opened.db, slug, { query: "xp=deepinfra,parasail/int4&xdiff=false" });
    for (const g of await generate("parasail", 2)) {
      second.push({ ...g, expected: "suspect", why: /view “Pipeline” excluded parasail\/int4: by hand\nit was included until .*, within the 60 min a pipeline may keep an old allow-list/ });
    }
    await importUsage(opened.db, "day-2.jsonl", second.map((g) => g.line).join("\n"));
    await check([...first, ...second]);
  });

  it("a second import of the same records changes nothing", async () => {
    const before = await classes();
    const again = await importUsage(opened.db, "day-1.jsonl", first.map((g) => g.line).join("\n"));
    expect(again).toMatchObject({ accepted: 0, duplicates: first.length });
    expect(await classes()).toEqual(before);
  });

  it("the export's ids are the page's counts, class by class", async () => {
    const all = [...first, ...second];
    const summary = await provenanceSummary(opened.db, "B5", DEFAULT_PLAN);
    for (const cls of PROVENANCE_CLASSES) {
      const text = await new Response(exportStream(opened.db, cls, "B5", "ids")).text();
      const ids = text.split("\n").filter(Boolean).sort();
      expect(ids).toEqual(all.filter((g) => g.expected === cls).map((g) => g.id).sort());
      expect(summary.totals.find((t) => t.class === cls)?.samples).toBe(ids.length);
    }
    const csv = await new Response(exportStream(opened.db, "excluded", "B5", "csv")).text();
    expect(csv.split("\r\n")[0]).toBe("generation_id,class,dataset,provider,tag,occurred_at,reasons");
    expect(csv).toContain("view “Pipeline” excluded deepinfra: by hand");
  });

  it("a pass over unchanged facts writes no judgement, yet the page and the lookup say it computed them then; a changed fact writes only what it changed", async () => {
    const all = [...first, ...second];
    const before = await classes();
    const at = new Date(Date.now() + 60_000);
    const same = await rejudge(opened.db, { dataset: "B5" }, { now: at });
    expect(same).toMatchObject({ judged: all.length, written: 0 });
    expect(await classes()).toEqual(before);
    const summary = await provenanceSummary(opened.db, "B5", DEFAULT_PLAN);
    for (const t of summary.totals) expect(t.computedAt).toBe(t.samples > 0 ? at.toISOString() : null);
    expect((await judgementOf(opened.db, all[0].id))?.computedAt).toBe(at.toISOString());
    // A team note corrects Novita's quantization (a correction applies to the past too): only
    // Novita's generations are written, and once more when the note is removed.
    const novita = all.filter((g) => g.provider === "Novita").length;
    expect(novita).toBeGreaterThan(0);
    await setKnownQuantization(opened.db, KIMI, { tag: "novita", quantization: "fp8", note: "their docs say fp8", recordedBy: "test" });
    expect(await rejudge(opened.db, { dataset: "B5" })).toMatchObject({ judged: all.length, written: novita });
    expect((await judgementOf(opened.db, all.find((g) => g.provider === "Novita")?.id ?? ""))?.reasons.join("\n")).toMatch(/quantization fp8 \(team's record\)/);
    await deleteKnownQuantization(opened.db, KIMI, "novita");
    expect(await rejudge(opened.db, { dataset: "B5" })).toMatchObject({ judged: all.length, written: novita });
    const strip = (c: Record<string, { class?: string; reasons: string[] }>) => Object.fromEntries(Object.entries(c).map(([id, j]) => [id, { class: j.class, reasons: j.reasons }]));
    expect(strip(await classes())).toEqual(strip(before));
  });

  it("the page's totals, kept as the records and judgements were written, equal a count of the records", async () => {
    expect(await keptByTally(opened.db)).toEqual(await countedFromRecords(opened.db));
  });
});
