import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { seedWatchedModels } from "@/lib/watched-models";
import { DEMO_HISTORY_TRIGGER } from "@/replica/demo-history";
import { DEMO_VIEW, seedDemoView, startDemoReplica } from "@/replica/demo-live";
import { DEMO_MODEL, demoPatches } from "@/replica/demo-scenario";
import { startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

// The demo's live part on each engine: its seeded view with alerts on, the drift reaching an
// endpoint that view includes within two polls, and a restart (a new replica on the same database)
// that continues the drift: one price moves by a cent or two, not every drifted price at once.
// The generated month of history is stood in for by one poll of the replica's end state, stored
// under the history's trigger (the full history is tested in demo-history.test.ts).

const poll = (db: OpenedDb["db"], replica: Replica, trigger = "api") =>
  runPollCycle(db, createOpenRouterClient({ baseUrl: replica.baseUrl, baseDelayMs: 1 }), { trigger });

/** Each endpoint's stored prices at the model's latest poll, "tag in/out" in USD per million. */
async function latestPrices(db: OpenedDb["db"]): Promise<Map<string, string>> {
  const latest = await db.modelPoll.findFirst({ where: { modelId: DEMO_MODEL.id, ok: true }, orderBy: { observedAt: "desc" } });
  const samples = await db.endpointSample.findMany({
    where: { observedAt: latest!.observedAt!, endpoint: { modelId: DEMO_MODEL.id } },
    select: { inputPricePerM: true, outputPricePerM: true, endpoint: { select: { tag: true } } },
  });
  return new Map(samples.map((s) => [s.endpoint.tag, `${s.inputPricePerM} / ${s.outputPricePerM}`]));
}

async function changesAtLatestPoll(db: OpenedDb["db"]) {
  const latest = await db.modelPoll.findFirst({ where: { modelId: DEMO_MODEL.id, ok: true }, orderBy: { observedAt: "desc" } });
  return db.changeEvent.findMany({ where: { modelId: DEMO_MODEL.id, observedAt: latest!.observedAt! }, orderBy: { id: "asc" } });
}

/** Cents per million between two "a.bc" price strings. */
const cents = (before: string, after: string) => Math.round(Math.abs(Number(after) - Number(before)) * 100);

describe.each(engines)("the demo's live part on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    opened = await engine.open();
    await seedWatchedModels(opened.db, [DEMO_MODEL.id]);
    // The end of the generated history: the replica's end state, undrifted.
    const still = await startReplica(0, "127.0.0.1", { patches: demoPatches() });
    await poll(opened.db, still, DEMO_HISTORY_TRIGGER);
    await still.close();
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    await opened?.close();
  });

  it("seeds one saved view with alerts on, whose first alert comes within two polls", async () => {
    const slug = await seedDemoView(opened.db);
    expect(await seedDemoView(opened.db)).toBe(slug); // once per database
    const view = await opened.db.savedView.findUnique({ where: { slug }, include: { alert: true } });
    expect(view).toMatchObject({ name: DEMO_VIEW.name, query: DEMO_VIEW.query, createdBy: "demo", alert: { enabled: true } });
    expect(view?.alert?.state).not.toBeNull(); // the answer on the latest snapshot is recorded

    const replica = await startDemoReplica(opened.db);
    replicas.push(replica);
    expect(replica.state.drift?.step).toBe(0);
    const included = replica.state.drift?.focus ?? [];
    expect(included.length).toBeGreaterThan(0);

    for (let i = 0; i < 2; i++) await poll(opened.db, replica);
    const events = await opened.db.alertEvent.findMany({ where: { viewSlug: slug }, orderBy: { id: "asc" } });
    const priceAlerts = events.filter((e) => e.kind === "endpoint" && (e.data as { change?: string }).change === "price");
    expect(priceAlerts.length).toBeGreaterThanOrEqual(1);
    for (const e of priceAlerts) expect(included).toContain((e.data as { tag: string }).tag);
  });

  it("a restarted demo continues its drift: the next poll moves one price by a cent or two", async () => {
    const first = replicas[0];
    for (let i = 0; i < 4; i++) await poll(opened.db, first);
    const polled = 6; // live polls so far: two in the test above, four here
    expect(first.state.drift?.step).toBe(polled);
    const drifted = Object.values(first.state.drift?.priceOffsets ?? {}).filter((c) => c !== 0).length;
    expect(drifted).toBeGreaterThan(1); // several prices are off their recorded value: a restart from scratch would put them all back
    const before = await latestPrices(opened.db);
    await first.close();
    replicas.shift();

    const restarted = await startDemoReplica(opened.db);
    replicas.push(restarted);
    await poll(opened.db, restarted);

    const changes = await changesAtLatestPoll(opened.db);
    expect(changes.map((c) => c.kind)).toEqual(["price"]);
    const after = await latestPrices(opened.db);
    const moved = [...after].filter(([tag, price]) => before.get(tag) !== price);
    expect(moved).toHaveLength(1);
    const [tag, price] = moved[0];
    const [beforeIn, beforeOut] = before.get(tag)!.split(" / ");
    const [afterIn, afterOut] = price.split(" / ");
    expect([1, 2]).toContain(cents(beforeIn, afterIn) + cents(beforeOut, afterOut));
    // The drift's step and the uptime wobble's poll count went on from the stored polls.
    expect(restarted.state.drift?.step).toBe(polled + 1);
    expect(restarted.state.endpointCalls[DEMO_MODEL.id]).toBe(polled + 1);
  });
});
