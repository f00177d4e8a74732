import Decimal from "decimal.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { activityByDayAndProvider, activityByProvider, activityStatus, chartDays } from "@/lib/activity/queries";
import { hourlyManagementRead, importActivity } from "@/lib/activity/import";
import type { OpenedDb } from "@/lib/db/engines";
import { reconcile } from "@/lib/activity/reconcile";
import { choosePipelineKey, recordKeyUsage } from "@/lib/keys/records";
import { importUsage } from "@/lib/usage/import";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { OpenRouterError } from "@/lib/openrouter/errors";
import { createManagementClient } from "@/lib/openrouter/management";
import { runPollCycle } from "@/lib/poller/cycle";
import { seedWatchedModels } from "@/lib/watched-models";
import { MANAGEMENT_KEY_PREFIX, SEEDED_PIPELINE_SECRET } from "@/replica/keys";
import { injectFault, patchReplica, resetReplica, startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

// OpenRouter's /activity through a management key, against the replica: stored per day, model and
// endpoint; a day read again replaces itself; read at most hourly; a failure changes nothing stored.

const KIMI = "moonshotai/kimi-k2.5";
const GLM = "z-ai/glm-5";
const LLAMA = "meta-llama/llama-3.3-70b-instruct";
const HOUR = 3_600_000;

describe.each(engines)("OpenRouter activity on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  const management = () =>
    createManagementClient({ baseUrl: replica.baseUrl, apiKey: `${MANAGEMENT_KEY_PREFIX}activity-test`, timeoutMs: 3000, baseDelayMs: 1, maxAttempts: 2, sleep: async () => undefined });
  const activityRequests = () => replica.state.requests.filter((r) => r.path === "/api/v1/activity").length;
  const stored = async () =>
    JSON.stringify(
      await opened.db.activityDay.findMany({ orderBy: [{ date: "asc" }, { model: "asc" }, { endpointId: "asc" }] }),
      (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v),
    );

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, [KIMI]);
    // the listed prices the actual ones are compared with
    await runPollCycle(opened.db, createOpenRouterClient({ baseUrl: replica.baseUrl, apiKey: "test" }), { trigger: "test" });
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });
  beforeEach(async () => {
    await opened.db.activityDay.deleteMany();
    await opened.db.activityFetch.deleteMany();
    await opened.db.keyUsageSnapshot.deleteMany();
    await opened.db.pipelineKey.deleteMany();
  });
  afterEach(async () => resetReplica(replica.url));

  it("stores 30 completed days per day, model and endpoint; importing the same days again changes nothing", async () => {
    const now = new Date();
    const first = await importActivity(opened.db, management(), now);
    expect(first.days).toBe(30);
    const count = await opened.db.activityDay.count();
    expect(count).toBe(first.rows);
    const before = await stored();

    const again = await importActivity(opened.db, management(), now);
    expect(again).toEqual(first);
    expect(await stored()).toBe(before);
    expect(await opened.db.activityDay.count()).toBe(count);

    // A later read replaces the days (their figures and read time), never adds them twice.
    await importActivity(opened.db, management(), new Date(now.getTime() + HOUR));
    expect(await opened.db.activityDay.count()).toBe(count);
    const [{ total }] = await opened.db.$queryRaw<Array<{ total: string }>>`SELECT sum("usageUsd")::text AS total FROM "ActivityDay"`;
    const perDay = await activityByDayAndProvider(opened.db, now);
    expect(perDay.reduce((sum, r) => sum.plus(r.usageUsd), new Decimal(0)).toFixed(6)).toBe(new Decimal(total).toFixed(6));
    expect(perDay.every((r) => !r.incomplete && r.demo)).toBe(true);
  });

  it("labels today's day, read before it ended, as incomplete", async () => {
    const chat = await fetch(`${replica.baseUrl}/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${SEEDED_PIPELINE_SECRET}` }, body: "{}" });
    expect(chat.status).toBe(200);
    const now = new Date();
    const result = await importActivity(opened.db, management(), now);
    expect(result.days).toBe(31);
    const today = now.toISOString().slice(0, 10);
    const rows = await activityByDayAndProvider(opened.db, now);
    expect(rows.filter((r) => r.incomplete)).toEqual([{ date: today, provider: "DeepInfra", usageUsd: "0.002340", incomplete: true, demo: true }]);
    const chart = chartDays(rows, now);
    expect(chart.days.at(-1)).toMatchObject({ date: today, incomplete: true, totalUsd: "0.00" });
    expect(chart.days).toHaveLength(31);
    expect(chart.providers).toEqual(expect.arrayContaining(["DeepInfra", "Parasail", "Together", "Fireworks"]));
  });

  it("compares actual $/M per provider with the listed prices", async () => {
    await importActivity(opened.db, management());
    const providers = await activityByProvider(opened.db);
    const deepinfra = providers.find((p) => p.provider === "DeepInfra");
    expect(deepinfra?.models).toHaveLength(1);
    expect(deepinfra?.models[0]).toMatchObject({ model: KIMI, listedInputPerM: "0.45", listedOutputPerM: "2.25" });
    // The replica's history charged input at exactly 92% of the listed price (cache hits) and output
    // at the listed price, for 1,800 prompt and 900 completion tokens per request (replica/keys.ts):
    // (0.92 × 0.45 × 2 + 2.25) / (0.45 × 2 + 2.25) = 3.078 / 3.15 = 0.97714…
    const listed = new Decimal(deepinfra?.promptTokens ?? 0).times("0.45").plus(new Decimal(deepinfra?.completionTokens ?? 0).times("2.25")).div(1_000_000);
    expect(deepinfra?.listedUsd).toBe(listed.toFixed(2));
    expect(deepinfra?.ratio).toBe("0.9771");
    expect(new Decimal(deepinfra?.models[0].actualOutputPerM ?? 0).lt("2.25")).toBe(true);
  });

  it("reads at most once an hour, with the pipeline key's usage alongside", async () => {
    const keys = (await management().listKeys()).data;
    await choosePipelineKey(opened.db, keys[0], "ana");
    const now = new Date();
    expect(await hourlyManagementRead(opened.db, management(), now)).toMatchObject({ days: 30 });
    expect(await hourlyManagementRead(opened.db, management(), new Date(now.getTime() + 59 * 60_000))).toBeNull();
    expect(activityRequests()).toBe(1);
    expect(await opened.db.keyUsageSnapshot.count()).toBe(1);
    expect(await hourlyManagementRead(opened.db, management(), new Date(now.getTime() + HOUR))).toMatchObject({ days: 30 });
    expect(activityRequests()).toBe(2);
    expect(await opened.db.keyUsageSnapshot.count()).toBe(2);
  });

  it("reconciles imported records, activity and the pipeline key's usage per day, flagging a day that differs", async () => {
    await opened.db.usageRecord.deleteMany();
    const now = new Date();
    await importActivity(opened.db, management(), now);
    const perDay = await activityByDayAndProvider(opened.db, now);
    const totalOn = (date: string) => perDay.filter((r) => r.date === date).reduce((sum, r) => sum.plus(r.usageUsd), new Decimal(0));
    const [centsDay, agreeDay, differDay] = [...new Set(perDay.map((r) => r.date))].slice(-3);
    const agreeTotal = totalOn(agreeDay);
    const differTotal = totalOn(differDay);
    const centsTotal = totalOn(centsDay);
    // The pipeline's records: the whole of one day (in two records), and a day where $1.00 is missing.
    const half = agreeTotal.div(2).toDecimalPlaces(8);
    const lines = [
      { id: "r1", provider: "DeepInfra", input_tokens: 1, output_tokens: 1, cost: half.toFixed(), occurred_at: `${agreeDay}T03:00:00Z` },
      { id: "r2", provider: "Parasail", input_tokens: 1, output_tokens: 1, cost: agreeTotal.minus(half).toFixed(), occurred_at: `${agreeDay}T17:00:00Z` },
      { id: "r3", provider: "DeepInfra", input_tokens: 1, output_tokens: 1, cost: differTotal.minus(1).toFixed(), occurred_at: `${differDay}T09:30:00Z` },
      // two cents short: well under 1% of a day of several dollars, but over $0.01
      { id: "r4", provider: "Together", input_tokens: 1, output_tokens: 1, cost: centsTotal.minus("0.02").toFixed(), occurred_at: `${centsDay}T12:00:00Z` },
    ];
    expect(centsTotal.gt(2)).toBe(true);
    expect((await importUsage(opened.db, "run.jsonl", lines.map((l) => JSON.stringify(l)).join("\n"))).accepted).toBe(4);
    // The key's own view of the agreeing day, read late that day: off by less than a cent.
    const key = (await management().listKeys()).data[0];
    await choosePipelineKey(opened.db, key, "ana");
    await recordKeyUsage(opened.db, { ...key, usage_daily: agreeTotal.plus("0.004").toFixed() }, true, new Date(`${agreeDay}T23:30:00Z`));

    const days = await reconcile(opened.db, key.hash, now);
    const agree = days.find((d) => d.date === agreeDay);
    const differ = days.find((d) => d.date === differDay);
    expect(agree).toMatchObject({ importedUsd: agreeTotal.toFixed(2), activityUsd: agreeTotal.toFixed(2), importedRecords: 2, flagged: false, incomplete: false });
    expect(agree?.keyUsd).toBe(agreeTotal.plus("0.004").toFixed(2));
    expect(differ).toMatchObject({ importedUsd: differTotal.minus(1).toFixed(2), activityUsd: differTotal.toFixed(2), keyUsd: null, flagged: true, largestGapUsd: "1.00" });
    expect(days.find((d) => d.date === centsDay)).toMatchObject({ importedUsd: centsTotal.minus("0.02").toFixed(2), activityUsd: centsTotal.toFixed(2), flagged: true, largestGapUsd: "0.02", onlyView: null });
    expect(days.filter((d) => d.flagged).map((d) => d.date)).toEqual([differDay, centsDay]);
    // Days with activity only are listed too, labelled with the one view they have, and not flagged.
    const activityDays = new Set(perDay.map((r) => r.date));
    const single = days.filter((d) => d.onlyView !== null);
    expect(single.map((d) => d.date).sort()).toEqual([...activityDays].filter((d) => ![centsDay, agreeDay, differDay].includes(d)).sort());
    expect(single.every((d) => d.onlyView === "activity" && !d.flagged && d.largestGapUsd === null && d.importedUsd === null && d.keyUsd === null)).toBe(true);
    expect(days).toHaveLength(activityDays.size);
  });

  it.each(["401", "429", "500", "hang"] as const)("a failed read (%s) changes nothing stored and is remembered for the page", async (kind) => {
    const now = new Date();
    await importActivity(opened.db, management(), now);
    const before = await stored();
    await injectFault(replica.url, { kind, path: "/activity", times: 4, retryAfter: 0 });
    const failed = await importActivity(opened.db, management(), new Date(now.getTime() + HOUR)).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(OpenRouterError);
    expect(await stored()).toBe(before);
    const status = await activityStatus(opened.db);
    expect(status.lastOk?.at).toBe(now.toISOString());
    expect(status.lastFailure?.error).toMatch(kind === "hang" ? /No answer/ : new RegExp(`HTTP ${kind}`));
  });
});

// The replica's "list" history bills every charge at exactly its listed price, with two models at
// DeepInfra and Novita and a model nobody watches at Together. Every provider must then come out at
// exactly 100% of list: each (provider, model, endpoint) is compared with its own model's price.
describe.each(engines)("actual against listed prices on $name PostgreSQL, billed exactly at list", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  const management = () =>
    createManagementClient({ baseUrl: replica.baseUrl, apiKey: `${MANAGEMENT_KEY_PREFIX}list-test`, timeoutMs: 3000, baseDelayMs: 1, maxAttempts: 2, sleep: async () => undefined });

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica(0, "127.0.0.1", { activityBilling: "list" })]);
    await seedWatchedModels(opened.db, [KIMI, GLM]);
    await runPollCycle(opened.db, createOpenRouterClient({ baseUrl: replica.baseUrl, apiKey: "test" }), { trigger: "test" });
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });

  it("shows every provider at exactly 100.0% of its listed prices, each model at its own price", async () => {
    const now = new Date();
    await importActivity(opened.db, management(), now);
    const providers = await activityByProvider(opened.db, now);

    // The listed prices, as replica/data/kimi-k2.5.ts and glm-5.ts give them (USD per million in · out).
    const prices = Object.fromEntries(providers.map((p) => [p.provider, p.models.map((m) => [m.model, m.listedInputPerM, m.listedOutputPerM])]));
    expect(prices).toEqual({
      DeepInfra: expect.arrayContaining([[KIMI, "0.45", "2.25"], [GLM, "0.80", "2.56"]]),
      Novita: expect.arrayContaining([[KIMI, "0.60", "3.00"], [GLM, "1.20", "3.80"]]),
      Fireworks: [[KIMI, "0.60", "3.00"]],
      Parasail: [[KIMI, "0.60", "2.80"]],
      Together: expect.arrayContaining([[KIMI, "0.50", "2.80"], [LLAMA, null, null]]),
    });
    expect(providers.find((p) => p.provider === "DeepInfra")?.models).toHaveLength(2);
    expect(providers.find((p) => p.provider === "Novita")?.models).toHaveLength(2);
    expect(providers.find((p) => p.provider === "Together")?.models).toHaveLength(2);

    // Billed at list: actual ÷ listed is exactly 1 for every provider and every listed model.
    expect(Object.fromEntries(providers.map((p) => [p.provider, p.ratio]))).toEqual({
      DeepInfra: "1.0000", Novita: "1.0000", Fireworks: "1.0000", Parasail: "1.0000", Together: "1.0000",
    });
    for (const p of providers) {
      for (const m of p.models.filter((m) => m.listedInputPerM !== null)) {
        expect(m, `${p.provider} ${m.model}`).toMatchObject({ ratio: "1.0000", listedUsd: m.actualUsd, actualInputPerM: m.listedInputPerM, actualOutputPerM: m.listedOutputPerM });
      }
    }

    // Together's unwatched model is charged but has no listed price: shown apart, outside the ratio.
    // Its charge, summed from the replica's own rows (not through the app's queries):
    const raw = (await (await fetch(`${replica.baseUrl}/activity`, { headers: { authorization: `Bearer ${MANAGEMENT_KEY_PREFIX}list-test` } })).json()) as {
      data: Array<{ model: string; provider_name: string; usage: number }>;
    };
    const llamaTotal = raw.data.filter((r) => r.model === LLAMA).reduce((sum, r) => sum.plus(String(r.usage)), new Decimal(0));
    expect(llamaTotal.gt(0)).toBe(true);
    const together = providers.find((p) => p.provider === "Together");
    expect(together?.unlistedUsd).toBe(llamaTotal.toFixed(2));
    expect(providers.filter((p) => p.provider !== "Together").every((p) => p.unlistedUsd === "0.00" && p.listedUsd === p.actualUsd)).toBe(true);
  });

  it("gives no listed price where the provider lists the model at two endpoints with two prices (activity does not say which served)", async () => {
    // Novita starts listing Kimi K2.5 at a second endpoint, at other prices ($/token: 0.40 and 2.00 per million).
    await patchReplica(replica.url, { model: KIMI, tag: "novita/fp8", set: { provider_name: "Novita", name: "Novita | moonshotai/kimi-k2.5-20260127", quantization: "fp8", pricing: { prompt: "0.0000004", completion: "0.000002", request: "0", image: "0" } } });
    await runPollCycle(opened.db, createOpenRouterClient({ baseUrl: replica.baseUrl, apiKey: "test" }), { trigger: "test" });
    const now = new Date();
    await importActivity(opened.db, management(), now);
    const novita = (await activityByProvider(opened.db, now)).find((p) => p.provider === "Novita");
    expect(novita?.models.find((m) => m.model === KIMI)).toMatchObject({ listedInputPerM: null, listedOutputPerM: null, listedUsd: null, ratio: null });
    // GLM-5 at Novita still has one price: the ratio is over it alone, and Kimi's charge is shown apart.
    expect(novita?.models.find((m) => m.model === GLM)).toMatchObject({ listedInputPerM: "1.20", listedOutputPerM: "3.80", ratio: "1.0000" });
    expect(novita?.ratio).toBe("1.0000");
    expect(novita?.unlistedUsd).toBe(novita?.models.find((m) => m.model === KIMI)?.actualUsd);
  });
});
