import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenedDb } from "@/lib/db/engines";
import { deleteKnownQuantization, listKnownQuantizations, setKnownQuantization } from "@/lib/known-quantization";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { compare, readComparisonData } from "@/lib/queries/comparison";
import { listWatchedModels } from "@/lib/queries/models";
import { createView, deleteView, getView, listViews, savedBy, updateView } from "@/lib/saved-views";
import { addWatchedModel, removeWatchedModel, seedWatchedModels } from "@/lib/watched-models";
import { startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";
import { tagsReachable } from "../helpers/routing-judge";

const KIMI = "moonshotai/kimi-k2.5";
const SEED_QUERY = "xq=int4,fp4,mxfp4,nvfp4&xp=fireworks&upmin=95";

describe.each(engines)("comparison on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  const client = () => createOpenRouterClient({ baseUrl: replica.baseUrl, baseDelayMs: 1 });

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, [KIMI]);
    await runPollCycle(opened.db, client(), { trigger: "test" });
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });

  /** As the pages and APIs decide it (comparisonForView): the stored facts, then the link's rules over them. */
  const comparisonOf = async (query: string) => {
    const data = await readComparisonData(opened.db, KIMI);
    return data && compare(data, new URLSearchParams(query));
  };

  it("a link's rules give the seed scenario's four providers, and the routing export selects exactly them", async () => {
    const comparison = await comparisonOf(SEED_QUERY);
    expect(comparison?.ignored).toEqual([]);
    const included = comparison?.verdicts.filter((v) => v.included).map((v) => v.tag).sort();
    expect(included).toEqual(["deepinfra", "novita", "together", "venice"]);
    // Judged by the replica's router on the endpoints as the replica lists them (no code shared with the export).
    const listed = await (await fetch(`${replica.baseUrl}/models/${KIMI}/endpoints`)).json();
    expect(tagsReachable(listed.data.endpoints, { ...comparison!.routing.provider }).sort()).toEqual(included);
  });

  it("team-known quantization is stored with who and when, and the rules use it", async () => {
    await setKnownQuantization(opened.db, KIMI, {
      tag: "fireworks",
      quantization: "nvfp4",
      note: "confirmed by the provider's docs",
      recordedBy: "Ana",
    });
    const [entry] = await listKnownQuantizations(opened.db, KIMI);
    expect(entry).toMatchObject({ tag: "fireworks", quantization: "nvfp4", recordedBy: "Ana" });
    const comparison = await comparisonOf("xq=int4,fp4,mxfp4,nvfp4");
    const fireworks = comparison?.verdicts.find((v) => v.tag === "fireworks");
    expect(fireworks).toMatchObject({ included: false, quantization: "nvfp4", quantizationSource: "team" });
    // The export lists `unknown` (DeepInfra etc. report it) but Fireworks is not in `only`.
    expect(comparison?.routing.provider.only).not.toContain("fireworks");
    expect(await deleteKnownQuantization(opened.db, KIMI, "fireworks")).toBe(true);
    expect(await listKnownQuantizations(opened.db, KIMI)).toEqual([]);
  });

  it("saved views: create, read, update, list, delete", async () => {
    const view = await createView(opened.db, { name: "EAGLE-3", modelId: KIMI, query: `?${SEED_QUERY}` }, savedBy(undefined));
    expect(view.slug).toMatch(/^[a-z0-9]{8}$/);
    expect(view.createdBy).toBe("anonymous");
    const signedIn = await createView(opened.db, { name: "Team", modelId: KIMI, query: "" }, savedBy("team:correct horse"));
    expect(await getView(opened.db, signedIn.slug)).toMatchObject({ createdBy: "team", createdAt: signedIn.createdAt });
    expect(await deleteView(opened.db, signedIn.slug)).toBe(true);
    expect(view.query).toBe(SEED_QUERY);
    expect(await getView(opened.db, view.slug)).toMatchObject({ name: "EAGLE-3", modelId: KIMI });
    const updated = await updateView(opened.db, view.slug, { query: "xq=int4" });
    expect(updated?.query).toBe("xq=int4");
    expect((await listViews(opened.db, KIMI)).map((v) => v.slug)).toContain(view.slug);
    expect(await deleteView(opened.db, view.slug)).toBe(true);
    expect(await getView(opened.db, view.slug)).toBeNull();
    expect(await deleteView(opened.db, view.slug)).toBe(false);
    expect(await getView(opened.db, "../../etc")).toBeNull();
  });

  it("adding a model checks OpenRouter's catalogue; removing keeps its history", async () => {
    expect(await addWatchedModel(opened.db, client(), "nobody/nothing")).toMatchObject({ ok: false, status: 404 });
    expect(await addWatchedModel(opened.db, client(), "not an id")).toMatchObject({ ok: false, status: 400 });
    expect(await addWatchedModel(opened.db, client(), "z-ai/glm-5")).toEqual({ ok: true, id: "z-ai/glm-5", name: "Z.ai: GLM 5" });
    await runPollCycle(opened.db, client(), { trigger: "test" });
    const samples = await opened.db.endpointSample.count({ where: { endpoint: { modelId: "z-ai/glm-5" } } });
    expect(samples).toBe(4);

    expect(await removeWatchedModel(opened.db, "z-ai/glm-5")).toBe(true);
    expect((await listWatchedModels(opened.db)).map((m) => m.id)).toEqual([KIMI]);
    expect(await opened.db.endpointSample.count({ where: { endpoint: { modelId: "z-ai/glm-5" } } })).toBe(samples);
    const cycle = await runPollCycle(opened.db, client(), { trigger: "test" });
    expect(cycle.models.map((m) => m.id)).toEqual([KIMI]);
    // A restart's seeding does not bring a removed model back.
    await seedWatchedModels(opened.db, [KIMI, "z-ai/glm-5"]);
    expect((await listWatchedModels(opened.db)).map((m) => m.id)).toEqual([KIMI]);
  });
});
