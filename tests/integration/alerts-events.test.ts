import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { xml2js, type Element } from "xml-js";
import { viewFeed } from "@/lib/alerts/feed";
import { listNotifications, markRead, unreadCount } from "@/lib/alerts/notifications";
import { putViewAlert } from "@/lib/alerts/view-settings";
import type { OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { createView } from "@/lib/saved-views";
import { seedWatchedModels } from "@/lib/watched-models";
import { patchReplica, startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

// The events half of the alerts (issue 12): each poll of the real client against the replica is
// written with the saved views' alert detection in its transaction; a change in the replica's data
// gives exactly one event of its kind, with its old and new values.

const KIMI = "moonshotai/kimi-k2.5";

describe.each(engines)("view alerts on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  let slug: string;
  let seen = 0;
  const poll = async (ok = true) => {
    const client = createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 2000, baseDelayMs: 5, maxAttempts: 2 });
    const result = await runPollCycle(opened.db, client, { trigger: "test" });
    expect(result.models[0].ok).toBe(ok);
  };
  /** The events written since the last call, oldest first. */
  const fresh = async () => {
    const rows = await opened.db.alertEvent.findMany({ where: { id: { gt: seen } }, orderBy: { id: "asc" } });
    if (rows.length) seen = rows[rows.length - 1].id;
    return rows;
  };
  const set = (tag: string, fields: Record<string, unknown>) => patchReplica(replica.url, { model: KIMI, tag, set: fields });

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, [KIMI]);
    await poll();
    slug = (await createView(opened.db, { name: "Pipeline", modelId: KIMI, query: "" })).slug;
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });

  it("the first poll after alerts are turned on records the view's answer and says nothing; unchanged polls write nothing", async () => {
    await poll(); // alerts still off: nothing evaluated
    expect(await opened.db.viewAlert.count()).toBe(0);
    expect((await putViewAlert(opened.db, slug, { enabled: true }))?.watching).toBe(false);
    await poll();
    const row = await opened.db.viewAlert.findFirstOrThrow();
    expect(row.state).toMatchObject({ version: 1, verdicts: { deepinfra: { included: true, label: "Included" } } });
    await poll();
    await poll();
    expect(await fresh()).toEqual([]);
  });

  it("a price change of an included endpoint is one event with the exact old and new prices", async () => {
    await set("deepinfra", { pricing: { prompt: "0.0000005", completion: "0.00000225", request: "0", image: "0", input_cache_read: "0.00000009", discount: 0 } });
    await poll();
    const events = await fresh();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: "endpoint",
      viewSlug: slug,
      viewName: "Pipeline",
      modelId: KIMI,
      data: { tag: "deepinfra", provider: "DeepInfra", change: "price", old: { inputPricePerM: "0.45", outputPricePerM: "2.25" }, new: { inputPricePerM: "0.50", outputPricePerM: "2.25" } },
    });
    expect(events[0].summary).toBe("DeepInfra in “Pipeline” changed its price ($/M input / output): 0.45 / 2.25 → 0.50 / 2.25");
    const poll2 = await opened.db.modelPoll.findFirstOrThrow({ where: { ok: true }, orderBy: { id: "desc" } });
    expect(events[0].observedAt).toEqual(poll2.observedAt);
    await poll();
    expect(await fresh()).toEqual([]);
  });

  it("a quantization change is one event", async () => {
    await set("together", { quantization: "fp8" });
    await poll();
    const events = await fresh();
    // The replica's answers are demo data, and every event says so.
    expect(events.map((e) => [e.kind, e.data])).toEqual([["endpoint", { tag: "together", provider: "Together", change: "quantization", old: "unknown", new: "fp8", demo: true }]]);
    await poll();
    expect(await fresh()).toEqual([]);
  });

  it("uptime: one poll below gives nothing, two give one event; two polls back above give one 'recovered'", async () => {
    await set("fireworks", { uptime_last_30m: 61.5 });
    await poll();
    expect(await fresh()).toEqual([]);
    await poll();
    const down = await fresh();
    expect(down.map((e) => e.kind)).toEqual(["uptime-down"]);
    expect(down[0].data).toEqual({ tag: "fireworks", provider: "Fireworks", threshold: 95, window: "30m", polls: [61.5, 61.5], old: "up", new: "down", demo: true });
    await poll();
    expect(await fresh()).toEqual([]); // still down: no message per poll
    await set("fireworks", { uptime_last_30m: 99.2 });
    await poll();
    expect(await fresh()).toEqual([]);
    await poll();
    const up = await fresh();
    expect(up.map((e) => e.kind)).toEqual(["uptime-recovered"]);
    expect(up[0].summary).toContain("recovered");
    expect(up[0].data).toMatchObject({ tag: "fireworks", polls: [99.2, 99.2], old: "down", new: "up" });
    await poll();
    expect(await fresh()).toEqual([]);
  });

  it("an endpoint leaving the included set names it with its verdict, and the routing export event carries the diff", async () => {
    await set("novita", { status: -3 });
    await poll();
    const events = await fresh();
    expect(events.map((e) => e.kind)).toEqual(["included", "routing", "endpoint"]);
    const [included, routing, status] = events;
    expect(included.data).toMatchObject({ tag: "novita", provider: "Novita", change: "left", reason: expect.stringMatching(/^Excluded: .*degraded/i) });
    expect(included.summary).toMatch(/^Novita left the included set of “Pipeline”: Excluded: /);
    expect(routing.data).toMatchObject({ diff: [{ path: "included", removed: ["novita"] }, { path: "provider.only", removed: ["novita"] }] });
    expect(routing.summary).toBe("The routing export of “Pipeline” changed: included: −novita; provider.only: −novita");
    expect((routing.data as { old: { body: { provider: { only: string[] } } } }).old.body.provider.only).toContain("novita");
    expect(status.data).toMatchObject({ tag: "novita", change: "status", old: 0, new: -3 });
    await poll();
    expect(await fresh()).toEqual([]);
  });

  it("events are written in the snapshot's transaction: a failing snapshot write leaves none", async () => {
    await set("venice", { quantization: "fp8" });
    const stateBefore = (await opened.db.viewAlert.findFirstOrThrow()).state;
    // The last statement of the snapshot's transaction fails after the detection ran.
    await opened.db.$executeRawUnsafe(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await opened.db.$executeRawUnsafe(`CREATE TRIGGER refuse BEFORE UPDATE ON "WatchedModel" FOR EACH ROW EXECUTE FUNCTION refuse()`);
    await poll(false);
    expect(await fresh()).toEqual([]);
    expect((await opened.db.viewAlert.findFirstOrThrow()).state).toEqual(stateBefore);
    await opened.db.$executeRawUnsafe(`DROP TRIGGER refuse ON "WatchedModel"`);
    await poll();
    expect((await fresh()).map((e) => [e.kind, (e.data as { tag: string }).tag])).toEqual([["endpoint", "venice"]]);
  });

  it("alerts off: polls evaluate nothing; turned on again, the first poll only records", async () => {
    await putViewAlert(opened.db, slug, { enabled: false });
    await set("chutes/int4", { quantization: "fp8" });
    await poll();
    expect(await fresh()).toEqual([]);
    await putViewAlert(opened.db, slug, { enabled: true });
    await set("chutes/int4", { quantization: "bf16" });
    await poll();
    expect(await fresh()).toEqual([]);
  });

  it("the view's Atom feed parses as Atom and its entries are the view's events, newest first", async () => {
    const xml = await viewFeed(opened.db, slug, { origin: "http://routeboard.test" });
    const doc = xml2js(xml as string, { compact: false }) as Element; // a strict XML parser: throws on malformed XML
    const feed = doc.elements?.find((e) => e.name === "feed") as Element;
    expect(feed.attributes?.xmlns).toBe("http://www.w3.org/2005/Atom");
    const child = (el: Element, name: string) => el.elements?.find((e) => e.name === name);
    const text = (el: Element | undefined) => el?.elements?.map((e) => e.text ?? e.cdata ?? "").join("") ?? "";
    // RFC 4287: a feed has an id, a title and updated; so does every entry.
    expect(text(child(feed, "id"))).toBe(`http://routeboard.test/v/${slug}/feed.xml`);
    expect(text(child(feed, "title"))).toBe("Routeboard alerts: Pipeline");
    expect(Number.isNaN(Date.parse(text(child(feed, "updated"))))).toBe(false);
    const entries = feed.elements?.filter((e) => e.name === "entry") ?? [];
    const stored = await opened.db.alertEvent.findMany({ where: { viewSlug: slug }, orderBy: { id: "desc" } });
    expect(stored.length).toBeGreaterThanOrEqual(7);
    expect(entries.map((e) => text(child(e, "id")))).toEqual(stored.map((e) => `urn:uuid:${e.eventId}`));
    expect(entries.map((e) => text(child(e, "title")))).toEqual(stored.map((e) => e.summary));
    expect(entries.map((e) => new Date(text(child(e, "updated"))).getTime())).toEqual(stored.map((e) => e.observedAt.getTime()));
    for (const e of entries) expect(child(e, "link")?.attributes?.href).toBe(`http://routeboard.test/v/${slug}`);
    const price = entries[stored.findIndex((e) => (e.data as { change?: string }).change === "price")];
    expect(text(child(price, "content"))).toContain("<dt>New</dt><dd><code>input $0.50/M, output $2.25/M</code></dd>");
    expect(await viewFeed(opened.db, "nosuchview", { origin: "http://routeboard.test" })).toBeNull();
  });

  it("notifications: newest first with an unread count; marked read one by one or all at once", async () => {
    const all = await listNotifications(opened.db, { limit: 50 });
    expect(all.unread).toBe(all.notifications.length);
    expect(all.notifications[0].id).toBeGreaterThan(all.notifications[1].id);
    expect(all.notifications[0]).toMatchObject({ view: { slug, name: "Pipeline" }, modelId: KIMI, read: false, demo: true });
    expect(await markRead(opened.db, { ids: [all.notifications[0].id] })).toBe(1);
    expect(await unreadCount(opened.db)).toBe(all.unread - 1);
    expect((await listNotifications(opened.db, { limit: 50, unread: "true" })).notifications.map((n) => n.id)).not.toContain(all.notifications[0].id);
    expect(await markRead(opened.db, { all: true })).toBe(all.unread - 1);
    expect(await unreadCount(opened.db)).toBe(0);
  });
});
