import { freePort } from "../helpers/ports";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PollStatus } from "@/components/models/poll-status";
import { QuantizationBadge } from "@/components/providers/quantization-badge";
import type { OpenedDb } from "@/lib/db/engines";
import { formatUsdPerM, formatUtc } from "@/lib/format";
import { createOpenRouterClient, type OpenRouterClientOptions } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { listWatchedModels } from "@/lib/queries/models";
import { latestProviders } from "@/lib/queries/providers";
import { seedWatchedModels } from "@/lib/watched-models";
import { injectFault, patchReplica, resetReplica, startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";

// Faults from OpenRouter, each against the replica with the real client: what is stored, what the
// page and the API say, and that the earlier snapshot stays intact and is shown as stale.
// (500/hang/malformed/wrong shape/empty on every attempt are in poller.test.ts.)

const KIMI = "moonshotai/kimi-k2.5";
const XSS = `<img src=x onerror=alert(1)>`;

describe.each(engines)("OpenRouter faults on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  const waits: number[] = [];
  const client = (overrides: Partial<OpenRouterClientOptions> = {}) =>
    createOpenRouterClient({
      baseUrl: replica.baseUrl,
      timeoutMs: 400,
      baseDelayMs: 5,
      maxAttempts: 3,
      maxRetryAfterMs: 5_000,
      // Waits are recorded, not slept: the test proves Retry-After is honoured without timing it.
      sleep: async (ms) => {
        waits.push(ms);
      },
      ...overrides,
    });
  const poll = (c = client()) => runPollCycle(opened.db, c, { trigger: "test" });

  /** The page's words for a model's poll state, rendered as the home page and model page do. */
  async function statusText(): Promise<string> {
    const [summary] = await listWatchedModels(opened.db);
    return renderToStaticMarkup(createElement(PollStatus, { lastPoll: summary.lastPoll, lastSuccessAt: summary.lastSuccessAt }));
  }

  beforeAll(async () => {
    [opened, replica] = await Promise.all([engine.open(), startReplica()]);
    await seedWatchedModels(opened.db, [KIMI]);
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close()]);
  });
  afterEach(async () => {
    waits.length = 0;
    await resetReplica(replica.url);
  });

  it("429 with Retry-After: waits the time asked for, then stores the snapshot", async () => {
    await injectFault(replica.url, { kind: "429", retryAfter: 2, times: 1 });
    const result = await poll();
    expect(result.models[0]).toMatchObject({ ok: true, attempts: 2, endpoints: 11 });
    expect(waits).toEqual([2000]);
    const poll1 = await opened.db.modelPoll.findFirst({ where: { cycleId: result.cycleId } });
    expect(poll1).toMatchObject({ ok: true, attempts: 2 });
  });

  it("500 then success, and a hang past the timeout then success: one snapshot, the attempts recorded", async () => {
    for (const kind of ["500", "hang"] as const) {
      const samples = await opened.db.endpointSample.count();
      await injectFault(replica.url, { kind, times: 1 });
      const result = await poll();
      expect(result.models[0], kind).toMatchObject({ ok: true, attempts: 2, endpoints: 11 });
      expect(await opened.db.endpointSample.count()).toBe(samples + 11);
      expect(await statusText()).toContain("OK");
    }
  });

  it.each([
    ["connection refused", "network", "ECONNREFUSED", 3],
    ["429 with a Retry-After longer than we wait", "http", "longer than we wait", 1],
    ["401 (a bad key)", "http", "HTTP 401", 1],
    ["503 on every attempt", "http", "HTTP 503", 3],
  ] as const)("%s: recorded with its error; the last snapshot stays and is shown as stale", async (name, errorKind, text, attempts) => {
    await poll();
    const before = await latestProviders(opened.db, KIMI);
    const counts = async () => [await opened.db.endpointSample.count(), await opened.db.rawResponse.count(), await opened.db.endpointVersion.count()];
    const countsBefore = await counts();

    let c = client();
    if (name === "connection refused") c = client({ baseUrl: `http://127.0.0.1:${await freePort()}/api/v1` });
    if (name.startsWith("429")) await injectFault(replica.url, { kind: "429", retryAfter: 3600, times: 1 });
    if (name.startsWith("401")) await injectFault(replica.url, { kind: "401", times: 1 });
    if (name.startsWith("503")) await injectFault(replica.url, { kind: "503", times: 3 });
    const result = await poll(c);
    expect(result.models[0]).toMatchObject({ ok: false, attempts });
    expect(result.models[0].error).toContain(text);

    const after = await latestProviders(opened.db, KIMI);
    expect(after?.polledAt).toBe(before?.polledAt);
    expect(after?.endpoints).toEqual(before?.endpoints);
    expect(after?.lastFailure).toMatchObject({ errorKind, attempts });
    expect(await counts()).toEqual(countsBefore);
    const text2 = await statusText();
    expect(text2).toContain("Failed");
    expect(text2).toContain(`Stale since ${formatUtc(before?.polledAt)}`);
  });

  it("odd values are kept as they came: an unknown quantization, null uptimes and latencies, a -1 price, HTML in a name", async () => {
    await poll();
    const earlier = await latestProviders(opened.db, KIMI);
    await patchReplica(replica.url, { model: KIMI, tag: "deepinfra", set: { quantization: "fp5" } });
    await patchReplica(replica.url, {
      model: KIMI,
      tag: "together",
      set: { uptime_last_5m: null, uptime_last_30m: null, uptime_last_1d: null, latency_last_30m: null, throughput_last_30m: null },
    });
    await patchReplica(replica.url, { model: KIMI, tag: "venice", set: { pricing: { prompt: "-1", completion: "-1" } } });
    await patchReplica(replica.url, { model: KIMI, tag: "novita", set: { provider_name: XSS } });
    const result = await poll(client({ apiKey: "test-key" }));
    expect(result.models[0]).toMatchObject({ ok: true, endpoints: 11 });

    // What is stored.
    const version = (tag: string) =>
      opened.db.endpointVersion.findFirst({ where: { endpoint: { modelId: KIMI, tag } }, orderBy: { id: "desc" } });
    expect((await version("deepinfra"))?.quantization).toBe("fp5");
    expect((await version("venice"))?.pricing).toMatchObject({ prompt: "-1", completion: "-1" });
    expect((await version("novita"))?.providerName).toBe(XSS);
    const endpoint = await opened.db.endpoint.findFirst({ where: { modelId: KIMI, tag: "novita" } });
    expect(endpoint?.providerName).toBe(XSS);
    const sample = (tag: string) =>
      opened.db.endpointSample.findFirst({ where: { endpoint: { modelId: KIMI, tag } }, orderBy: { observedAt: "desc" } });
    expect(await sample("together")).toMatchObject({ uptime5m: null, uptime30m: null, uptime1d: null, latencyP50: null, throughputP50: null });
    expect(await sample("venice")).toMatchObject({ inputPricePerM: null, outputPricePerM: null });

    // What the API says.
    const api = await latestProviders(opened.db, KIMI);
    const row = (tag: string) => api?.endpoints.find((e) => e.tag === tag);
    expect(row("deepinfra")?.quantization).toBe("fp5");
    expect(row("together")).toMatchObject({ uptime5m: null, uptime30m: null, uptime1d: null, latencyP50Ms: null, throughputP50: null });
    expect(row("venice")).toMatchObject({ inputPricePerM: null, outputPricePerM: null });
    expect(row("novita")?.provider).toBe(XSS);
    expect(JSON.stringify(api)).not.toMatch(/-1000000|-1\.00/);

    // What the page says: the provider table's cells use these (the whole table, with the HTML name,
    // is checked in a browser by tests/e2e/trust.spec.ts).
    const badge = renderToStaticMarkup(createElement(QuantizationBadge, { reported: row("deepinfra")?.quantization ?? null }));
    expect(badge).toMatch(/>fp5<\/span>/);
    expect(badge).toContain('title="unknown"');
    expect(formatUsdPerM(row("venice")?.inputPricePerM)).toBe("—");
    expect(renderToStaticMarkup(createElement("td", null, row("novita")?.provider))).toBe("<td>&lt;img src=x onerror=alert(1)&gt;</td>");

    // The earlier snapshot is untouched.
    const earlierSamples = await opened.db.endpointSample.findMany({
      where: { observedAt: new Date(earlier?.polledAt ?? 0), endpoint: { modelId: KIMI } },
      include: { version: true, endpoint: true },
    });
    expect(earlierSamples).toHaveLength(11);
    const venice = earlierSamples.find((s) => s.endpoint.tag === "venice");
    expect(venice?.inputPricePerM?.toString()).toBe("0.75");
    expect(earlierSamples.find((s) => s.endpoint.tag === "deepinfra")?.version.quantization).toBe("unknown");
    expect(earlierSamples.find((s) => s.endpoint.tag === "novita")?.version.providerName).toBe("Novita");
  });
});
