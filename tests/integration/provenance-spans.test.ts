import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { chooseDatasetView } from "@/lib/provenance/choices";
import { judgeGeneration } from "@/lib/provenance/judge";
import { loadTimelineInput } from "@/lib/provenance/load";
import { rejudge } from "@/lib/provenance/rejudge";
import { buildTimeline, generationFacts, timelineBreaks } from "@/lib/provenance/timeline";
import { createView, updateView } from "@/lib/saved-views";
import { importUsage } from "@/lib/usage/import";
import { seedWatchedModels } from "@/lib/watched-models";
import { startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";
import { storedReasons } from "../helpers/stored-reasons";
import { countedFromRecords, keptByTally } from "../helpers/tally-judge";

// A re-judgement groups each batch's records in PostgreSQL by what their judgement depends on (the
// view, provider, tag, model, lookup and the time span between two of the view's facts, found by
// width_bucket over the span's breaks) and judges each group once. Checked here against each
// generation judged alone, in memory, from the same stored facts: records a millisecond before, at
// and after every break of a timeline whose view includes Chutes, excludes it, then includes it
// again (so the grace, the exclusion and the rules' first moment all change a class), plus records
// with no time, with a tag, and awaiting their lookup.

const KIMI = "moonshotai/kimi-k2.5";
const GRACE = 60;

describe.each(engines)("a re-judgement's time spans on the $name engine", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  let viewId: number;
  let breaks: number[] = [];

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, [KIMI]);
    const client = createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 2000, baseDelayMs: 5, maxAttempts: 2 });
    await runPollCycle(opened.db, client, { trigger: "test" });
    const pause = () => new Promise((resolve) => setTimeout(resolve, 15));
    await pause();
    const slug = (await createView(opened.db, { name: "Spans", modelId: KIMI, query: "" })).slug;
    await pause();
    await updateView(opened.db, slug, { query: "xp=chutes/int4" });
    await pause();
    await runPollCycle(opened.db, client, { trigger: "test" });
    await pause();
    await updateView(opened.db, slug, { query: "" });
    viewId = (await opened.db.savedView.findUniqueOrThrow({ where: { slug } })).id;
    expect(await chooseDatasetView(opened.db, { dataset: "B4", view: slug })).toEqual({ ok: true });
    const now = Date.now();
    breaks = timelineBreaks(buildTimeline(await loadTimelineInput(opened.db, viewId, KIMI, new Date(now - 86_400_000), new Date(now + 86_400_000))), GRACE);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });

  it("judges every record as it would be judged alone, at a break and a millisecond either side", async () => {
    // Two polls, three revisions and each of those plus the grace: eight or more moments.
    expect(breaks.length).toBeGreaterThanOrEqual(8);
    // The records around the first three breaks in one file, the rest in another: a pass over the
    // second alone starts its batch after breaks it must still number from (the slice it sends).
    const files: string[][] = [[], []];
    let n = 0;
    const line = (file: number, fields: Record<string, unknown>) =>
      files[file].push(JSON.stringify({ id: `gen-span-${++n}`, model: KIMI, dataset: "B4", input_tokens: 10, output_tokens: 20, cost: "0.0001", ...fields }));
    breaks.forEach((b, i) => {
      for (const t of [b - 1, b, b + 1]) {
        for (const provider of ["Chutes", "Parasail", "Leaky Labs"]) line(i < 3 ? 0 : 1, { provider, occurred_at: new Date(t).toISOString() });
        line(i < 3 ? 0 : 1, { provider: "Chutes", tag: "chutes/int4", occurred_at: new Date(t).toISOString() });
      }
    });
    line(0, { provider: "Chutes" });
    line(0, { provider: "Parasail", occurred_at: new Date(breaks[0] - 3_600_000).toISOString() });
    line(0, { occurred_at: new Date(breaks[2]).toISOString() });
    line(1, { occurred_at: new Date(breaks[4]).toISOString() });
    const early = await importUsage(opened.db, "spans-early.jsonl", files[0].join("\n"), {});
    const later = await importUsage(opened.db, "spans-later.jsonl", files[1].join("\n"), {});
    expect([early, later]).toMatchObject([
      { accepted: files[0].length, rejected: 0 },
      { accepted: files[1].length, rejected: 0 },
    ]);

    // Every stored judgement made stale, so each pass writes its records through their groups.
    await opened.db.$executeRaw`UPDATE "ProvenanceJudgement" SET detail = 'stale'`;
    expect((await rejudge(opened.db, { importId: later.importId }, { graceMinutes: GRACE })).written).toBe(files[1].length);
    expect((await rejudge(opened.db, {}, { graceMinutes: GRACE })).written).toBe(files[0].length);

    const records = await opened.db.usageRecord.findMany({ include: { judgement: true, lookup: true }, orderBy: { id: "asc" } });
    const first = Math.min(...records.flatMap((r) => (r.occurredAt ? [r.occurredAt.getTime()] : [])));
    const last = Math.max(...records.flatMap((r) => (r.occurredAt ? [r.occurredAt.getTime()] : [])));
    const timeline = buildTimeline(await loadTimelineInput(opened.db, viewId, KIMI, new Date(first - GRACE * 60_000), new Date(last)));
    const view = await opened.db.savedView.findUniqueOrThrow({ where: { id: viewId } });
    const reasonsOf = await storedReasons(opened.db);
    const classes = new Set<string>();
    for (const r of records) {
      const facts = generationFacts(r, { slug: view.slug, name: view.name, modelId: view.modelId }, timeline, GRACE);
      if (r.lookup) facts.lookup = { state: r.lookup.state, attempts: r.lookup.attempts, error: r.lookup.lastError };
      const alone = judgeGeneration(facts);
      const at = r.occurredAt?.toISOString() ?? "no time";
      expect({ at, provider: r.provider, tag: r.tag, class: r.judgement?.class, reasons: reasonsOf(r.judgement) }).toEqual({
        at,
        provider: r.provider,
        tag: r.tag,
        class: alone.class,
        reasons: alone.reasons,
      });
      classes.add(alone.class);
    }
    // The facts above make the spans matter: more than one class among the records.
    expect([...classes].sort()).toEqual(expect.arrayContaining(["awaiting", "excluded", "suspect", "unverified"]));
    // A second pass finds every judgement standing, and the page's totals are the records'.
    expect((await rejudge(opened.db, {}, { graceMinutes: GRACE })).written).toBe(0);
    expect(await keptByTally(opened.db)).toEqual(await countedFromRecords(opened.db));
  });
});
