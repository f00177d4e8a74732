import { expect, test } from "@playwright/test";
import { until } from "../helpers/poller-child";
import { freePort, startSecuredServer, type SecuredServer } from "./secured-server";

// /api/health on a server whose scheduler runs but can never reach OpenRouter (issue 18, item 7):
// once the first interval after start has passed with no successful poll, it answers 503
// "degraded" with the reason in words, to a monitor without credentials. The bounds to the second
// are checked in tests/integration/health.test.ts; this checks the route as a monitor sees it.

let server: SecuredServer;
test.beforeAll(async () => {
  test.setTimeout(180_000); // a server of its own to start, on a shared machine
  const nobody = await freePort(); // nothing listens there: every poll is refused
  server = await startSecuredServer({ POLL_INTERVAL_SECONDS: "3", OPENROUTER_BASE_URL: `http://127.0.0.1:${nobody}/api/v1` });
});
test.afterAll(async () => {
  await server?.stop();
});

test("health answers 503 degraded, saying why, when the scheduler's polls never succeed", async () => {
  const last = { status: 0, body: {} as Record<string, unknown> };
  await until(
    "health to report degraded",
    async () => {
      const response = await fetch(`${server.url}/api/health`);
      last.status = response.status;
      last.body = (await response.json()) as Record<string, unknown>;
      return last.body.status === "degraded";
    },
    60_000,
  );
  const { status, body } = last;
  expect(status).toBe(503);
  expect(body).toMatchObject({ ok: false, status: "degraded", database: { reachable: true }, scheduler: { running: true, intervalSeconds: 3 } });
  expect(body.models).toEqual([expect.objectContaining({ id: "moonshotai/kimi-k2.5", lastSuccessAt: null, stale: true })]);
  expect(body.reason).toMatch(
    /^No poll of moonshotai\/kimi-k2\.5 has ever succeeded; the server started \d+ s ago \(the scheduler polls every 3 s(; the last poll failed \(network\))?\)\.$/,
  );
});
