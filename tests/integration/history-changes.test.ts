import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { listChanges } from "@/lib/history/change-log";
import { changesQuery } from "@/lib/history/params";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { seedWatchedModels } from "@/lib/watched-models";
import { patchReplica, startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

const KIMI = "moonshotai/kimi-k2.5";

describe.each(engines)("change log on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  const poll = async () => {
    const client = createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 2000, baseDelayMs: 5, maxAttempts: 2 });
    const result = await runPollCycle(opened.db, client, { trigger: "test" });
    expect(result.models[0].ok).toBe(true);
  };
  const events = () => opened.db.changeEvent.findMany({ orderBy: { id: "asc" } });

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, [KIMI]);
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });

  it("a model's first snapshot and unchanged polls record no change", async () => {
    await poll();
    await poll();
    await poll();
    // Uptimes wobble between polls, but no healthy endpoint crosses 95% and nothing else moves.
    expect(await events()).toEqual([]);
  });

  it("detects each kind of change once, when the poll that shows it is written", async () => {
    const set = (tag: string, fields: Record<string, unknown>) => patchReplica(replica.url, { model: KIMI, tag, set: fields });
    await set("deepinfra", { pricing: { prompt: "0.0000005", completion: "0.00000225", request: "0", image: "0", input_cache_read: "0.00000009", discount: 0 } });
    await set("together", { quantization: "fp8" });
    await set("novita", { status: -3 });
    await set("fireworks", { uptime_last_30m: 61.5 });
    await patchReplica(replica.url, { model: KIMI, tag: "venice", remove: true });
    await set("newco/fp8", { provider_name: "NewCo", quantization: "fp8" });
    await patchReplica(replica.url, { model: KIMI, tag: "baseten/fp4", remove: true });
    await set("baseten/fp8", { provider_name: "BaseTen", quantization: "fp8" });
    await poll();
    const first = await events();
    // Replica uptimes wobble from poll to poll: the uptime change is described by its side of 95%.
    const was = (e: { kind: string; before: string | null }) =>
      e.kind === "uptime" ? (Number(e.before) >= 95 ? "≥95" : "<95") : (e.before ?? "∅");
    const summary = first.map((e) => `${e.kind} ${e.tag} ${was(e)} → ${e.after ?? "∅"}`).sort();
    expect(summary).toEqual([
      "added newco/fp8 ∅ → fp8",
      "price deepinfra 0.45 / 2.25 → 0.50 / 2.25",
      "quantization together unknown → fp8",
      "removed venice unknown → ∅",
      "status novita 0 → -3",
      "tag baseten/fp8 baseten/fp4 → baseten/fp8",
      "uptime fireworks ≥95 → 61.5",
    ]);
    const observed = (await opened.db.modelPoll.findFirst({ where: { ok: true }, orderBy: { observedAt: "desc" } }))?.observedAt;
    expect(new Set(first.map((e) => e.observedAt.getTime()))).toEqual(new Set([observed?.getTime()]));
    expect(first.find((e) => e.kind === "removed")?.endpointId).toEqual(expect.any(Number));

    // The next polls show the same state: nothing new is recorded.
    await poll();
    await poll();
    expect(await events()).toEqual(first);
  });

  it("lists changes newest first, filtered by kind and provider, in clamped pages", async () => {
    await patchReplica(replica.url, { model: KIMI, tag: "fireworks", set: { uptime_last_30m: 99.2 } });
    await poll();
    const all = await listChanges(opened.db, KIMI);
    expect(all?.changes).toHaveLength(8);
    expect(all?.changes[0]).toMatchObject({ kind: "uptime", provider: "Fireworks", before: "61.5", after: "99.2" });
    expect(all?.providers).toContain("DeepInfra");
    expect((await listChanges(opened.db, KIMI, { kind: "uptime" }))?.changes.map((c) => c.after)).toEqual(["99.2", "61.5"]);
    expect((await listChanges(opened.db, KIMI, { provider: "Novita" }))?.changes.map((c) => c.kind)).toEqual(["status"]);

    const page1 = await listChanges(opened.db, KIMI, { limit: 5 });
    expect(page1?.changes).toHaveLength(5);
    const page2 = await listChanges(opened.db, KIMI, { limit: 5, before: page1?.nextBefore ?? undefined });
    expect(page2?.changes).toHaveLength(3);
    expect(page2?.nextBefore).toBeNull();
    expect(changesQuery.parse({ limit: "100000" }).limit).toBe(200);
    expect(changesQuery.safeParse({ kind: "weather" }).error?.issues[0].path).toEqual(["kind"]);
    expect(await listChanges(opened.db, "nobody/nothing")).toBeNull();
  });
});
