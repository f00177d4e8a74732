import Decimal from "decimal.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient, type OpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { chooseDatasetView } from "@/lib/provenance/choices";
import { lookupProgress, lookupRound } from "@/lib/provenance/lookup";
import { provenanceSummary } from "@/lib/provenance/queries";
import { rejudge } from "@/lib/provenance/rejudge";
import { createView } from "@/lib/saved-views";
import { importUsage } from "@/lib/usage/import";
import { DEFAULT_PLAN } from "@/lib/view-state/budget";
import { seedWatchedModels } from "@/lib/watched-models";
import { injectFault, lagGenerations, startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";
import { countedFromRecords, keptByTally } from "../helpers/tally-judge";
import { storedReasons } from "../helpers/stored-reasons";

// Issue 21, item 4: a pipeline kept only its generation ids. Routeboard imports them as "awaiting
// lookup", looks each up in the replica's GET /generation through the real client, and judges it.
// The replica lags (404 first), rate-limits once (429 with Retry-After), and a round dies mid-way;
// the replica's own counts show no id answered twice. Time moves by the `now` the rounds are
// given, never by sleeping.

const KIMI = "moonshotai/kimi-k2.5";
const LEASE_S = 120;

interface Served {
  id: string;
  provider: string;
  promptTokens: number;
  completionTokens: number;
  cost: string;
  line: string;
}

describe.each(engines)("generation lookups on the $name engine", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  let client: OpenRouterClient;
  const served: Served[] = [];
  let sequence = 0;
  const UNKNOWN = "gen-1999999999-neverserved";

  const classes = async () => {
    const reasonsOf = await storedReasons(opened.db);
    return Object.fromEntries(
      (await opened.db.usageRecord.findMany({ where: { dataset: "B7" }, include: { judgement: true } })).map((r) => [
        r.dedupeKey.slice(3),
        { class: r.judgement?.class, reasons: reasonsOf(r.judgement).join("\n"), record: r },
      ]),
    );
  };

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    client = createOpenRouterClient({ baseUrl: replica.baseUrl, apiKey: "sk-or-v1-lookup-test", timeoutMs: 15_000, maxAttempts: 1 });
    await seedWatchedModels(opened.db, [KIMI]);
    await runPollCycle(opened.db, createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 2000, baseDelayMs: 5, maxAttempts: 2 }), { trigger: "test" });
    const slug = (await createView(opened.db, { name: "Pipeline", modelId: KIMI, query: "xp=deepinfra" })).slug;
    expect(await chooseDatasetView(opened.db, { dataset: "B7", view: slug })).toEqual({ ok: true });
    // The pipeline's calls: Chutes, and Novita (some of whose calls the replica hands to DeepInfra).
    for (const only of ["chutes", "chutes", ...Array(8).fill("novita")]) {
      const { data: c, raw } = await client.chat({
        model: KIMI,
        messages: [{ role: "user", content: `Lookup sample ${++sequence} for ${only}` }],
        max_tokens: 8,
        temperature: 1,
        provider: { only: [only], allow_fallbacks: true },
      });
      const cost = /"cost"\s*:\s*([0-9.eE+-]+)/.exec(raw)?.[1] ?? "";
      // Half the lines kept the time, tokens and cost; the other half only the id.
      const line =
        sequence % 2 === 0
          ? JSON.stringify({ id: c.id, dataset: "B7" })
          : JSON.stringify({ id: c.id, dataset: "B7", occurred_at: new Date().toISOString(), input_tokens: c.usage.prompt_tokens, output_tokens: c.usage.completion_tokens, cost: c.usage.cost });
      served.push({ id: c.id, provider: String(c.provider), promptTokens: c.usage.prompt_tokens, completionTokens: c.usage.completion_tokens, cost, line });
    }
    expect(new Set(served.map((s) => s.provider))).toEqual(new Set(["Chutes", "Novita", "DeepInfra"]));
  }, 120_000);
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });

  it("imports id-only records as awaiting lookup, never trusted, and rejects malformed ones naming the field", async () => {
    const body = [
      ...served.map((s) => s.line),
      JSON.stringify({ id: UNKNOWN, dataset: "B7" }),
      JSON.stringify({ id: "not a generation id", dataset: "B7" }),
      JSON.stringify({ dataset: "B7", input_tokens: 1 }),
    ].join("\n");
    const result = await importUsage(opened.db, "ids-only.jsonl", body);
    expect(result).toMatchObject({ accepted: served.length + 1, rejected: 2, awaitingLookup: served.length + 1 });
    expect(result.errors[0]).toMatchObject({ line: served.length + 2 });
    expect(result.errors[0].message).toMatch(/^id: must be an OpenRouter generation id/);
    expect(result.errors[1].message).toMatch(/^provider: required \(or give the generation id, id/);
    const got = await classes();
    for (const s of served) expect({ id: s.id, class: got[s.id].class, reasons: got[s.id].reasons }).toEqual({ id: s.id, class: "awaiting", reasons: "the record kept only its generation id: OpenRouter's /generation not yet looked up" });
    const summary = await provenanceSummary(opened.db, "B7", DEFAULT_PLAN);
    expect(summary.totals.find((t) => t.class === "awaiting")?.samples).toBe(served.length + 1);
    expect(summary.totals.find((t) => t.class === "trusted")?.samples).toBe(0);
    expect(await lookupProgress(opened.db)).toMatchObject({ pending: served.length + 1, found: 0, notFound: 0, failed: 0 });
    // The import judged its records as it inserted them, exactly as a pass over them does: a pass now writes nothing.
    expect(await rejudge(opened.db, { dataset: "B7" })).toMatchObject({ judged: served.length + 1, written: 0 });
    // A second import of the same lines adds nothing to look up.
    expect(await importUsage(opened.db, "ids-only.jsonl", body)).toMatchObject({ accepted: 0, awaitingLookup: 0 });
  });

  it("survives 404s, a 429 and a round that dies mid-way, asking no answered id again", async () => {
    await lagGenerations(replica.url, 1); // every id answers 404 on its first lookup
    const t0 = Date.now();
    const at = (s: number) => () => new Date(t0 + s * 1000);
    const opts = { perSecond: 50, maxTries: 3, retryBaseMs: 1000, leaseSeconds: LEASE_S };

    const first = await lookupRound(opened.db, client, { ...opts, batch: 3, now: at(0) });
    expect(first).toMatchObject({ claimed: 3, found: 0, later: 3 });
    const lagged = await classes();
    const firstIds = Object.entries(lagged).filter(([, v]) => /not yet found after 1 lookup \(HTTP 404/.test(v.reasons)).map(([k]) => k);
    expect(firstIds).toHaveLength(3);
    for (const id of firstIds) expect(lagged[id].class).toBe("awaiting");

    // A round that dies after its first lookup: its pacing sleep never ends, its other rows stay leased.
    let reached = 0;
    void lookupRound(opened.db, client, { ...opts, perSecond: 0.5, batch: 3, now: at(0), sleep: () => (reached++, new Promise<void>(() => {})) });
    await expect.poll(() => reached, { timeout: 30_000 }).toBe(1);
    const leased = await opened.db.generationLookup.count({ where: { state: "pending", leaseUntil: { not: null } } });
    expect(leased).toBe(2);
    // Before its lease ends nobody else takes its rows (the first three are not due until t0+1 s).
    expect(await lookupRound(opened.db, client, { ...opts, now: at(0.5) })).toMatchObject({ claimed: served.length + 1 - 6 });

    // The next round meets a 429: nothing more is asked until Retry-After has passed.
    await injectFault(replica.url, { kind: "429", path: "/generation", retryAfter: 7 });
    const limited = await lookupRound(opened.db, client, { ...opts, now: at(LEASE_S + 1) });
    expect(limited.pausedUntil).toBe(new Date(t0 + (LEASE_S + 8) * 1000).toISOString());
    expect(await lookupRound(opened.db, client, { ...opts, now: at(LEASE_S + 7) })).toMatchObject({ claimed: 0 });

    // After it, rounds run until nothing is due; some ids needed a second try after their 404.
    for (let s = LEASE_S + 8, n = 0; n < 10; n++, s += 5) {
      const r = await lookupRound(opened.db, client, { ...opts, now: at(s) });
      if (r.claimed === 0 && (await opened.db.generationLookup.count({ where: { state: "pending" } })) === 0) break;
    }
    const progress = await lookupProgress(opened.db);
    expect(progress).toMatchObject({ pending: 0, found: served.length, notFound: 1, failed: 0 });
    // The replica's own counts: each served id answered exactly once, after exactly one 404.
    for (const s of served) {
      expect({ id: s.id, answered: replica.state.generation.answered[s.id], lookups: replica.state.generation.lookups[s.id] }).toEqual({ id: s.id, answered: 1, lookups: 2 });
    }
    expect(replica.state.generation.lookups[UNKNOWN]).toBe(3);
    // More rounds, much later, ask nothing again.
    const before = JSON.stringify(replica.state.generation.lookups);
    expect(await lookupRound(opened.db, client, { ...opts, now: at(86_400) })).toMatchObject({ claimed: 0 });
    expect(JSON.stringify(replica.state.generation.lookups)).toBe(before);
  });

  it("judges the looked-up records exactly, with what they lacked filled from the answer", async () => {
    const got = await classes();
    for (const s of served) {
      const { record, class: cls, reasons } = got[s.id];
      expect({ id: s.id, provider: record.provider }).toEqual({ id: s.id, provider: s.provider });
      const expected =
        s.provider === "DeepInfra"
          ? { class: "excluded", why: /view “Pipeline” excluded deepinfra: by hand/ }
          : { class: "unverified", why: new RegExp(`view “Pipeline” included ${s.provider.toLowerCase()}[\\s\\S]*never probed before the generation`) };
      expect({ id: s.id, class: cls }).toEqual({ id: s.id, class: expected.class });
      expect(reasons).toMatch(expected.why);
      expect({ id: s.id, input: Number(record.inputTokens), output: Number(record.outputTokens), cost: new Decimal(record.costUsd.toString()).equals(new Decimal(s.cost)) }).toEqual({
        id: s.id,
        input: s.promptTokens,
        output: s.completionTokens,
        cost: true,
      });
      expect(record.occurredAt).not.toBeNull();
      expect(record.modelId).toMatch(/^moonshotai\/kimi-k2\.5/);
    }
    expect(got[UNKNOWN]).toMatchObject({ class: "unverified" });
    expect(got[UNKNOWN].reasons).toBe("OpenRouter's /generation never knew this id (3 lookups answered 404), so its provider is unknown");
    const summary = await provenanceSummary(opened.db, "B7", DEFAULT_PLAN);
    expect(summary.totals.find((t) => t.class === "awaiting")?.samples).toBe(0);
    expect(summary.totals.find((t) => t.class === "excluded")?.samples).toBe(served.filter((s) => s.provider === "DeepInfra").length);
  });

  it("a malformed id is refused by the client and by the replica, naming the field", async () => {
    expect(() => client.generation("gen-bad id/../x")).toThrow(/^id: "gen-bad id\/\.\.\/x" is not an OpenRouter generation id/);
    const res = await fetch(`${replica.baseUrl}/generation?id=${encodeURIComponent("bad id")}`, { headers: { authorization: "Bearer sk-or-v1-lookup-test" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^id: /);
  });

  it("the page's totals, kept as the records and judgements were written, equal a count of the records", async () => {
    expect(await keptByTally(opened.db)).toEqual(await countedFromRecords(opened.db));
  });
});
