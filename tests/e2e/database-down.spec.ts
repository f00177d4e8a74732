import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, startSecuredServer, type SecuredServer } from "./secured-server";

// A server whose PostgreSQL cannot be reached at start (a closed port): it still starts, health
// answers 503 saying why, the APIs answer 503, pages show a plain error, and nothing leaks a stack.
// And a second server on an embedded folder another one holds: refused the same way.

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
