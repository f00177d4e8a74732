import { expect, type Browser, type BrowserContext } from "@playwright/test";
import { BASIC_PASSWORD, BASIC_USER, CRON_SECRET, FAKE_MANAGEMENT_KEY, startSecuredServer, type SecuredServer } from "./secured-server";

// A server whose pages carry what a team's pages carry after a while (issue 18, items 11 and 14):
// a team note, a finished fidelity probe with verdicts, imported usage (one day of it disagreeing
// with OpenRouter's activity, so reconciliation flags it), and the account's keys with a pipeline
// key chosen. Everything is made through the app's own routes and pages, as a team would.

export const KIMI = "moonshotai/kimi-k2.5";
export const MODEL_PAGE = `/models/${KIMI}`;
export const TEAM_NOTE = { tag: "fireworks", quantization: "nvfp4", note: "confirmed by the provider's docs and a support ticket", recordedBy: "Ana" };
/** The probe's endpoints: one that matches the reference and one that does not. */
export const PROBED = ["chutes/int4", "fireworks"];

export interface DataServer {
  server: SecuredServer;
  /** A signed-in browser context on the server. */
  context(viewport: { width: number; height: number }): Promise<BrowserContext>;
  stop(): Promise<void>;
}

const basic = `Basic ${Buffer.from(`${BASIC_USER}:${BASIC_PASSWORD}`).toString("base64")}`;

async function call(url: string, init: RequestInit & { json?: unknown } = {}) {
  const { json, ...rest } = init;
  const response = await fetch(url, {
    ...rest,
    headers: { authorization: basic, ...(json === undefined ? {} : { "content-type": "application/json" }), ...(rest.headers ?? {}) },
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

export async function startDataServer(browser: Browser): Promise<DataServer> {
  const server = await startSecuredServer({ OPENROUTER_MANAGEMENT_KEY: FAKE_MANAGEMENT_KEY, OPENROUTER_TIMEOUT_SECONDS: "2" });
  try {
    // One poll cycle, as the cron runs it: the endpoints, a spend snapshot and OpenRouter's activity.
    const polled = await fetch(`${server.url}/api/poll`, { method: "POST", headers: { authorization: `Bearer ${CRON_SECRET}` } });
    expect(polled.status).toBe(200);

    const note = await call(`${server.url}/api/models/${KIMI}/known-quantization`, { method: "PUT", json: TEAM_NOTE });
    expect(note.status).toBe(200);

    // A short probe (ten of the team's prompts, two endpoints), waited for until it is done.
    const prompts = Array.from({ length: 10 }, (_, i) => JSON.stringify({ prompt: `Prompt ${i}: name a river.` })).join("\n");
    const set = await call(`${server.url}/api/probes/prompt-sets?name=data-server`, { method: "POST", body: prompts, headers: { "content-type": "application/jsonl" } });
    expect(set.status, JSON.stringify(set.body)).toBe(201);
    const run = await call(`${server.url}/api/models/${KIMI}/probes`, {
      method: "POST",
      json: { reference: "moonshotai/int4", endpoints: PROBED, prompts: { id: set.body.id }, maxCostUsd: "2.00" },
    });
    expect(run.status, JSON.stringify(run.body)).toBe(202);
    await expect
      .poll(async () => (await call(`${server.url}/api/probes/${run.body.id}`)).body.status, { timeout: 150_000, intervals: [500, 1_000] })
      .toBe("done");

    // Yesterday's imported records cost $1.00 more than OpenRouter's activity says: a flagged day.
    const yesterday = new Date(Date.now() - 86_400_000);
    yesterday.setUTCHours(12, 0, 0, 0);
    const lines = [
      { id: "data-gen-1", provider: "DeepInfra", model: KIMI, dataset: "B3", created: Math.floor(yesterday.getTime() / 1000), usage: { prompt_tokens: 200_000, completion_tokens: 400_000, cost: 1.0 } },
      { id: "data-gen-2", provider: "Venice", model: KIMI, dataset: "B4", created: Math.floor(yesterday.getTime() / 1000), usage: { prompt_tokens: 1000, completion_tokens: 1000, cost: 0.0045 } },
    ];
    const imported = await call(`${server.url}/api/usage?filename=data.jsonl`, { method: "POST", body: lines.map((l) => JSON.stringify(l)).join("\n"), headers: { "content-type": "application/x-ndjson" } });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);

    const context = (viewport: { width: number; height: number }) =>
      browser.newContext({ baseURL: server.url, viewport, httpCredentials: { username: BASIC_USER, password: BASIC_PASSWORD } });

    // The pipeline key, chosen on the page (a server action, as a person does it).
    const chooser = await context({ width: 1280, height: 900 });
    const page = await chooser.newPage();
    await page.goto("/spend");
    const keys = page.getByRole("region", { name: "Keys" });
    await keys.getByRole("button", { name: /Batch pipeline/ }).click();
    await expect(keys.getByRole("group", { name: "Pipeline key", exact: true })).toContainText("Batch pipeline");
    await chooser.close();

    return { server, context, stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
