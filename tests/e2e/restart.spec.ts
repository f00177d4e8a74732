import { expect, test } from "@playwright/test";
import { injectFault } from "../../replica/server";
import { until } from "../helpers/poller-child";
import { freshDatabase, type TestDatabase } from "./database";
import { CRON_SECRET, freePort, startSecuredServer, type SecuredServer } from "./secured-server";

// The server itself killed in the middle of a poll cycle (SIGKILL: no shutdown code runs), then
// started again on the same database, as a supervisor would. Nothing half-written shows, the last
// good snapshot is still there, and polling resumes once the dead cycle's claim on the model has
// expired. On the suite's engine: the embedded folder (whose lock the dead server leaves behind)
// or a PostgreSQL database.

const KIMI = "moonshotai/kimi-k2.5";
const cron = { authorization: `Bearer ${CRON_SECRET}` };

let database: TestDatabase;
let servers: SecuredServer[] = [];
/** Stops (or crashes) a server this file started, and forgets it. */
async function end(server: SecuredServer, how: "stop" | "crash" = "stop") {
  servers = servers.filter((s) => s !== server);
  await server[how]();
}
test.beforeAll(async () => {
  database = await freshDatabase("restart");
});
test.afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => undefined);
  await database?.remove();
});

test("the server killed mid-poll and restarted: no half snapshot, the last good one shown, polling resumes", async () => {
  test.setTimeout(75_000); // a server killed and started again: 21 s in a CI run
  const settings = { ...database.env, BASIC_AUTH: "", POLL_LEASE_SECONDS: "3" };
  const first = await startSecuredServer(settings);
  servers.push(first);
  const good = await (await fetch(`${first.url}/api/poll`, { method: "POST", headers: cron })).json();
  expect(good.models[0]).toMatchObject({ id: KIMI, ok: true, endpoints: 11 });
  const before = await (await fetch(`${first.url}/api/models/${KIMI}/providers`)).json();

  // The next poll hangs at OpenRouter; the server dies while it waits.
  await injectFault(first.replica.url, { kind: "hang", times: 10, path: "/endpoints" });
  const seen = first.replica.state.requests.length;
  void fetch(`${first.url}/api/poll`, { method: "POST", headers: cron }).catch(() => undefined);
  await until("the poll to reach OpenRouter", async () => first.replica.state.requests.slice(seen).some((r) => r.path.endsWith("/endpoints")));
  await end(first, "crash");

  const second = await startSecuredServer(settings);
  servers.push(second);
  // Embedded: refused (503) until the dead server's lock goes stale; then up.
  await until("the restarted server's database", () => fetch(`${second.url}/api/health`).then((r) => r.status === 200, () => false), 45_000);
  const after = await (await fetch(`${second.url}/api/models/${KIMI}/providers`)).json();
  expect(after).toEqual(before); // the last good snapshot, whole; nothing from the killed cycle
  const health = await (await fetch(`${second.url}/api/health`)).json();
  expect(health.models[0]).toMatchObject({ id: KIMI, lastPollOk: true, lastSuccessAt: before.polledAt });

  // Once the dead cycle's 3 s claim on the model has expired, polling resumes.
  // Every poll before then is skipped for that claim; one that fails any other way fails the test.
  await until(
    "a poll to succeed again",
    async () => {
      const cycle = await (await fetch(`${second.url}/api/poll`, { method: "POST", headers: cron })).json();
      const model = cycle.models[0];
      if (model?.ok === true) return true;
      expect(model, "a poll while the dead cycle's claim holds").toMatchObject({ id: KIMI, ok: false, skipped: true });
      return false;
    },
    10_000, // the 3 s claim, from the kill, on a busy machine
  );
  const resumed = await (await fetch(`${second.url}/api/models/${KIMI}/providers`)).json();
  expect(resumed.endpoints).toHaveLength(11);
  expect(new Date(resumed.polledAt).getTime()).toBeGreaterThan(new Date(before.polledAt).getTime());
  await end(second);
});

test("OpenRouter unreachable (connection refused): the poll fails with the reason, the page shows the last good data as stale", async ({ browser }) => {
  test.setTimeout(90_000); // 28 s in a CI run
  const own = await freshDatabase("refused");
  try {
    const first = await startSecuredServer({ ...own.env, BASIC_AUTH: "" });
    servers.push(first);
    const good = await (await fetch(`${first.url}/api/poll`, { method: "POST", headers: cron })).json();
    expect(good.models[0]).toMatchObject({ ok: true, endpoints: 11 });
    await end(first);

    // The same data, now with OpenRouter at an address where nothing listens.
    const second = await startSecuredServer({ ...own.env, BASIC_AUTH: "", OPENROUTER_BASE_URL: `http://127.0.0.1:${await freePort()}/api/v1` });
    servers.push(second);
    await until("the restarted server's database", () => fetch(`${second.url}/api/health`).then((r) => r.status === 200, () => false), 45_000);
    const failed = await (await fetch(`${second.url}/api/poll`, { method: "POST", headers: cron })).json();
    expect(failed.models[0]).toMatchObject({ ok: false });
    expect(failed.models[0].error).toMatch(/ECONNREFUSED/);

    const page = await browser.newPage({ baseURL: second.url });
    await page.goto(`/models/${KIMI}`);
    const alert = page.getByRole("alert", { name: "Last poll failed" });
    await expect(alert).toContainText("Failed");
    await expect(alert).toContainText("ECONNREFUSED");
    await expect(alert).toContainText("Stale since");
    await expect(page.getByRole("table", { name: "Providers" }).getByRole("row")).toHaveCount(12);
    await page.close();
    await end(second);
  } finally {
    await own.remove();
  }
});
