import { expect, test } from "@playwright/test";
import { freePort, startSecuredServer, type SecuredServer } from "./secured-server";

// A server whose PostgreSQL cannot be reached at start (a closed port): it still starts, health
// answers 503 saying why, the APIs answer 503, pages show a plain error, and nothing leaks a stack.

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
