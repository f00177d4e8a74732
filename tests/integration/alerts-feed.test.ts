import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { viewFeed } from "@/lib/alerts/feed";
import { feedLinkState, feedTokenOpens, makeFeedToken, revokeFeedToken } from "@/lib/alerts/feed-token";
import { putViewAlert } from "@/lib/alerts/view-settings";
import type { OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { createView, deleteView } from "@/lib/saved-views";
import { seedWatchedModels } from "@/lib/watched-models";
import { patchReplica, startReplica, type Replica } from "@/replica/server";
import { atomProblems, child, children, elementNames, parseAtom, textOf } from "../helpers/atom-validator";
import { engines } from "../helpers/db";

// The view's Atom feed as a reader gets it (issue 18, item 5): valid RFC 4287 (checked by the
// tests' own validator, tests/helpers/atom-validator.ts), a hostile provider name from OpenRouter's
// data carried as escaped text only, and the private feed link: stored hashed, replaced, revoked.

const KIMI = "moonshotai/kimi-k2.5";
const HOSTILE = "<img src=x onerror=alert(1)>Evil";
const ORIGIN = "http://routeboard.test";

describe.each(engines)("the alerts feed on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  let slug: string;
  const poll = async () => {
    const client = createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 2000, baseDelayMs: 5, maxAttempts: 2 });
    expect((await runPollCycle(opened.db, client, { trigger: "test" })).models[0].ok).toBe(true);
  };

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, [KIMI]);
    await poll();
    slug = (await createView(opened.db, { name: "Pipeline <b>&</b>", modelId: KIMI, query: "" })).slug;
    await putViewAlert(opened.db, slug, { enabled: true });
    await poll(); // records the view's answer
    // OpenRouter's data names DeepInfra with markup, and its price changes: one event quoting the name.
    await patchReplica(replica.url, {
      model: KIMI,
      tag: "deepinfra",
      set: { provider_name: HOSTILE, pricing: { prompt: "0.0000005", completion: "0.00000225", request: "0", image: "0", discount: 0 } },
    });
    await poll();
    await patchReplica(replica.url, { model: KIMI, tag: "venice", set: { quantization: "fp8" } });
    await poll();
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });

  it("is valid RFC 4287: required elements, authors, unique ids, RFC 3339 dates, text types, rel=self", async () => {
    const events = await opened.db.alertEvent.findMany({ where: { viewSlug: slug }, orderBy: { id: "desc" } });
    expect(events.length).toBeGreaterThanOrEqual(2);
    const xml = (await viewFeed(opened.db, slug, { origin: ORIGIN })) as string;
    expect(atomProblems(xml)).toEqual([]);
    const { feed, entries } = parseAtom(xml);
    expect(entries).toHaveLength(events.length);
    expect(textOf(child(feed, "title"))).toBe("Routeboard alerts: Pipeline <b>&</b>");
    expect(textOf(child(child(feed, "author") as never, "name"))).toBe("Routeboard");
    expect(children(feed, "link").find((l) => l.attributes?.rel === "self")?.attributes?.href).toBe(`${ORIGIN}/v/${slug}/feed.xml`);
    for (const [i, entry] of entries.entries()) {
      expect(textOf(child(entry, "id"))).toBe(`urn:uuid:${events[i].eventId}`);
      expect(new Date(textOf(child(entry, "updated"))).getTime()).toBe(events[i].observedAt.getTime());
      expect(child(entry, "author")).toBeDefined();
    }
    // An empty view's feed is valid too (updated from the view itself).
    const quiet = (await createView(opened.db, { name: "Quiet", modelId: KIMI, query: "" })).slug;
    expect(atomProblems((await viewFeed(opened.db, quiet, { origin: ORIGIN })) as string)).toEqual([]);
  });

  it("a hostile provider name is text: escaped in the XML, never an element, never unescaped HTML", async () => {
    const [event] = await opened.db.alertEvent.findMany({ where: { viewSlug: slug, data: { path: ["tag"], equals: "deepinfra" } } });
    expect(event.summary).toContain(HOSTILE);
    const xml = (await viewFeed(opened.db, slug, { origin: ORIGIN })) as string;
    expect(xml).not.toContain("<img");
    expect(xml).not.toContain("CDATA");
    const { feed, entries } = parseAtom(xml);
    expect(elementNames(feed).filter((n) => !["id", "title", "subtitle", "updated", "author", "name", "link", "generator", "entry", "category", "summary", "content"].includes(n))).toEqual([]);
    const entry = entries.find((e) => textOf(child(e, "id")) === `urn:uuid:${event.eventId}`);
    if (!entry) throw new Error("the hostile event is not in the feed");
    // title and summary: plain text, which a reader shows as the characters themselves.
    for (const name of ["title", "summary"]) {
      expect(child(entry, name)?.attributes?.type).toBe("text");
      expect(textOf(child(entry, name))).toBe(event.summary);
    }
    // content: HTML in which the name is escaped, so the reader shows it and runs nothing.
    const content = child(entry, "content");
    expect(content?.attributes?.type).toBe("html");
    const html = textOf(content);
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;Evil");
  });

  it("a private feed link: stored hashed, opens its own view's feed only, replaced and revoked", async () => {
    expect(await feedLinkState(opened.db, slug)).toEqual({ createdAt: null });
    const first = await makeFeedToken(opened.db, slug);
    if (!first) throw new Error("no token made");
    expect(first.token).toMatch(/^rbf_[A-Za-z0-9_-]{43}$/);
    expect(await feedLinkState(opened.db, slug)).toEqual({ createdAt: first.createdAt });
    // Only a hash is stored: the token appears nowhere in the row.
    const [row] = await opened.db.$queryRawUnsafe<Array<Record<string, unknown>>>(`SELECT * FROM "ViewFeedToken"`);
    expect(JSON.stringify(row)).not.toContain(first.token.slice(4));
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    expect(await feedTokenOpens(opened.db, slug, first.token)).toBe(true);
    const other = (await createView(opened.db, { name: "Other", modelId: KIMI, query: "" })).slug;
    expect(await feedTokenOpens(opened.db, other, first.token)).toBe(false);
    expect(await feedTokenOpens(opened.db, slug, first.token.slice(0, -1) + (first.token.endsWith("A") ? "B" : "A"))).toBe(false);
    expect(await feedTokenOpens(opened.db, slug, "")).toBe(false);
    expect(await feedTokenOpens(opened.db, slug, null)).toBe(false);

    // The feed fetched through it names that address as its own (rel="self").
    const self = `${ORIGIN}/v/${slug}/feed.xml?token=${first.token}`;
    const xml = (await viewFeed(opened.db, slug, { origin: ORIGIN, self })) as string;
    expect(atomProblems(xml)).toEqual([]);
    expect(children(parseAtom(xml).feed, "link").find((l) => l.attributes?.rel === "self")?.attributes?.href).toBe(self);

    // A new link replaces the old one.
    const second = await makeFeedToken(opened.db, slug);
    if (!second) throw new Error("no token made");
    expect(second.token).not.toBe(first.token);
    expect(await feedTokenOpens(opened.db, slug, first.token)).toBe(false);
    expect(await feedTokenOpens(opened.db, slug, second.token)).toBe(true);

    // Revoked: it opens nothing.
    expect(await revokeFeedToken(opened.db, slug)).toBe(true);
    expect(await feedTokenOpens(opened.db, slug, second.token)).toBe(false);
    expect(await feedLinkState(opened.db, slug)).toEqual({ createdAt: null });

    // Unknown views; and a deleted view takes its link with it.
    expect(await makeFeedToken(opened.db, "nosuchview")).toBeNull();
    expect(await revokeFeedToken(opened.db, "nosuchview")).toBe(false);
    expect(await feedLinkState(opened.db, "nosuchview")).toBeNull();
    const third = await makeFeedToken(opened.db, other);
    await deleteView(opened.db, other);
    expect(await feedTokenOpens(opened.db, other, third?.token)).toBe(false);
    expect(await opened.db.viewFeedToken.count()).toBe(0);
  });
});
