import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { injectFault } from "../../replica/server";
import { CuttableProxy } from "../helpers/cuttable-proxy";
import { until } from "../helpers/poller-child";
import { createScratchDatabase } from "../helpers/scratch";
import { E2E_ENGINE } from "./database";
import { CRON_SECRET, freePort, startSecuredServer, type SecuredServer } from "./secured-server";

// A server whose PostgreSQL cannot be reached at start (a closed port): it still starts, health
// answers 503 saying why, the APIs answer 503, pages show a plain error, and nothing leaks a stack.
// A server whose PostgreSQL goes away in the middle of a poll, and comes back. And a second server
// on an embedded folder another one holds: refused the same way.

let server: SecuredServer;
test.beforeAll(async () => {
  server = await startSecuredServer({ DATABASE_URL: `postgresql://postgres@127.0.0.1:${await freePort()}/routeboard`, BASIC_AUTH: "" });
});
test.afterAll(async () => {
  await server?.stop();
});

test("the database unreachable: health 503, APIs 503, pages a plain error, no stack trace", async ({ browser }) => {
  const health = await fetch(`${server.url}/api/health`);
  expect(health.status).toBe(503);
  expect(await health.json()).toMatchObject({ ok: false, database: { reachable: false } });
  for (const url of ["/api/models", "/api/models/moonshotai/kimi-k2.5/providers"]) {
    const response = await fetch(`${server.url}${url}`);
    expect(response.status, url).toBe(503);
    expect((await response.json()).error.message, url).toContain("database cannot be reached");
  }
  const page = await browser.newPage({ baseURL: server.url });
  await page.goto("/models/moonshotai/kimi-k2.5");
  await expect(page.getByRole("heading", { name: "This page could not be loaded" })).toBeVisible();
  expect(await page.content()).not.toMatch(/ECONNREFUSED|\n\s+at /);
  await page.close();
  expect(server.logs()).toContain("cannot be reached at start");
});

test("a second server on the same embedded folder is refused: its health says so, the first keeps serving", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "routeboard-shared-folder-"));
  const onFolder = { EMBEDDED_DB_DIR: dir, DATABASE_URL: "", BASIC_AUTH: "" };
  const first = await startSecuredServer(onFolder);
  const second = await startSecuredServer(onFolder).catch(async (err) => {
    await first.stop();
    throw err;
  });
  try {
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
    const health = await fetch(`${second.url}/api/health`);
    expect(health.status).toBe(503);
    const report = await health.json();
    expect(report).toMatchObject({ ok: false, database: { reachable: false, error: "The embedded database is in use by another process" } });
    expect(JSON.stringify(report)).not.toContain(dir); // the open health route names no folder
    const models = await fetch(`${second.url}/api/models`);
    expect(models.status).toBe(503);
    expect(second.logs()).toContain(`The embedded database in ${dir} is in use by another process`);
    expect((await fetch(`${first.url}/api/models`)).status).toBe(200);
  } finally {
    await second.stop();
    await first.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the database lost in the middle of a poll through /api/poll: the poll fails cleanly, the page says so, and once it is back the lost cycle is recorded and polling resumes", async ({ browser }) => {
  test.skip(E2E_ENGINE !== "postgres", "a database that goes away mid-poll is a server's fault: the PostgreSQL pass runs this");
  test.setTimeout(120_000);
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL as string);
  const proxy = new CuttableProxy(scratch.url);
  await proxy.listen();
  const direct = new pg.Client({ connectionString: scratch.url });
  await direct.connect();
  const count = async (sql: string) => Number((await direct.query(sql)).rows[0].n);
  const cron = { authorization: `Bearer ${CRON_SECRET}` };
  const lost = await startSecuredServer({ DATABASE_URL: proxy.url, BASIC_AUTH: "", OPENROUTER_TIMEOUT_SECONDS: "2" });
  const page = await browser.newPage({ baseURL: lost.url });
  try {
    const first = await (await fetch(`${lost.url}/api/poll`, { method: "POST", headers: cron })).json();
    expect(first.models[0]).toMatchObject({ ok: true, endpoints: 11 });

    // The next poll's first request to OpenRouter hangs; while it waits, the database goes away.
    await injectFault(lost.replica.url, { kind: "hang", times: 1, path: "/endpoints" });
    const seen = lost.replica.state.requests.length;
    const polling = fetch(`${lost.url}/api/poll`, { method: "POST", headers: cron });
    await until("the poll to reach OpenRouter", async () => lost.replica.state.requests.slice(seen).some((r) => r.path.endsWith("/endpoints")));
    await proxy.cut();
    // The cycle ends, and says what went wrong with the model: its snapshot could not be stored.
    const failed = await polling;
    expect(failed.status).toBe(200);
    const cycle = await failed.json();
    expect(cycle.cycleId).toBe(first.cycleId + 1);
    expect(cycle.models[0]).toMatchObject({ id: "moonshotai/kimi-k2.5", ok: false, endpoints: 0, attempts: 2 });
    expect(cycle.models[0].error).toMatch(/^Could not store the snapshot: Can't reach database server/);

    // While it is away: health and the APIs say so, the page shows a plain error.
    expect((await fetch(`${lost.url}/api/health`)).status).toBe(503);
    expect((await fetch(`${lost.url}/api/models/moonshotai/kimi-k2.5/providers`)).status).toBe(503);
    await page.goto("/models/moonshotai/kimi-k2.5");
    await expect(page.getByRole("heading", { name: "This page could not be loaded" })).toBeVisible();

    // Nothing half-written: the lost cycle has no poll record and no samples.
    expect(await count(`select count(*) as n from "EndpointSample"`)).toBe(11);
    expect(await count(`select count(*) as n from "ModelPoll"`)).toBe(1);

    // Back: the next poll records the lost cycle once (a storage failure), then succeeds.
    await proxy.restore();
    const next = await (await fetch(`${lost.url}/api/poll`, { method: "POST", headers: cron })).json();
    expect(next.models[0]).toMatchObject({ ok: true, endpoints: 11 });
    const polls = (await direct.query(`select "cycleId", ok, "errorKind" from "ModelPoll" order by "cycleId"`)).rows;
    expect(polls).toEqual([
      { cycleId: first.cycleId, ok: true, errorKind: null },
      { cycleId: first.cycleId + 1, ok: false, errorKind: "storage" },
      { cycleId: next.cycleId, ok: true, errorKind: null },
    ]);
    expect(await count(`select count(*) as n from "EndpointSample"`)).toBe(22);
    await page.goto("/models/moonshotai/kimi-k2.5");
    await expect(page.getByRole("table", { name: "Providers" }).getByRole("row")).toHaveCount(12);
    await expect(page.getByRole("alert", { name: "Last poll failed" })).toHaveCount(0);
  } finally {
    await page.close();
    await lost.stop();
    await direct.end();
    await proxy.cut().catch(() => undefined);
    await scratch.drop();
  }
});
