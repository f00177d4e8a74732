import { expect as baseExpect, test } from "@playwright/test";
import { patchReplica } from "../../replica/server";
import { atomProblems } from "../helpers/atom-validator";
import { screenshot } from "./helpers";
import { BASIC_PASSWORD, BASIC_USER, CRON_SECRET, startSecuredServer, type SecuredServer } from "./secured-server";

// A saved view's private feed link on a server with BASIC_AUTH (issue 18, item 5): made from the
// view's alerts panel, it opens the feed in a reader that has no credentials, and only that feed;
// revoked, the same URL answers 401 (and 404 to someone signed in). The token is in no log line.

// The model page loads its charts while the panel opens: on a machine shared with other builds
// this takes well over the default 10 s now and then, so the page's steps wait up to 30 s.
const expect = baseExpect.configure({ timeout: 30_000 });

const KIMI = "moonshotai/kimi-k2.5";
const HOSTILE = "<img src=x onerror=alert(1)>Evil";
const basic = `Basic ${Buffer.from(`${BASIC_USER}:${BASIC_PASSWORD}`).toString("base64")}`;

test.describe.configure({ mode: "serial" });

let server: SecuredServer;
test.beforeAll(async () => {
  test.setTimeout(180_000); // a server of its own to start, on a shared machine
  server = await startSecuredServer();
});
test.afterAll(async () => {
  await server?.stop();
});

const cronPoll = async () => {
  const cycle = await (await fetch(`${server.url}/api/poll`, { method: "POST", headers: { authorization: `Bearer ${CRON_SECRET}` } })).json();
  expect(cycle.models[0].ok).toBe(true);
};
/** What a feed reader without credentials gets. */
const anonymous = (url: string) => fetch(url, { redirect: "manual" });

test("a private feed link opens the view's feed without credentials; revoked, it stops", async ({ browser }) => {
  // A saved view with alerts on, and one event that quotes a provider name with markup in it.
  await cronPoll();
  const viewResponse = await fetch(`${server.url}/api/views`, {
    method: "POST",
    headers: { authorization: basic, "content-type": "application/json" },
    body: JSON.stringify({ name: "Reader view", modelId: KIMI, query: "" }),
  });
  expect(viewResponse.status).toBe(201);
  const { slug } = (await viewResponse.json()) as { slug: string };
  const alerts = await fetch(`${server.url}/api/views/${slug}/alerts`, {
    method: "PUT",
    headers: { authorization: basic, "content-type": "application/json" },
    body: JSON.stringify({ enabled: true }),
  });
  expect(alerts.status).toBe(200);
  await cronPoll();
  await patchReplica(server.replica.url, {
    model: KIMI,
    tag: "deepinfra",
    set: { provider_name: HOSTILE, pricing: { prompt: "0.0000005", completion: "0.00000225", request: "0", image: "0", discount: 0 } },
  });
  await cronPoll();

  // Without credentials and without a token: the feed asks for them, as every page does.
  expect((await anonymous(`${server.url}/v/${slug}/feed.xml`)).status).toBe(401);

  // The team member makes the link on the view's alerts panel.
  const team = await browser.newContext({ httpCredentials: { username: BASIC_USER, password: BASIC_PASSWORD } });
  const page = await team.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/models/${KIMI}`);
  await page.getByRole("button", { name: "Alerts of Reader view" }).click();
  const panel = page.getByRole("region", { name: "Private feed link of Reader view" });
  await expect(panel).toContainText("No private link yet.");
  await panel.getByRole("button", { name: "Make private link" }).click();
  await expect(panel.getByRole("status").filter({ hasText: "Private feed link made" })).toContainText("it is not shown again");
  const url = await panel.getByLabel("Private feed URL of Reader view").inputValue();
  expect(url).toMatch(new RegExp(`^${server.url}/v/${slug}/feed\\.xml\\?token=rbf_[A-Za-z0-9_-]{43}$`));
  await expect(panel).toContainText("is in use (it was shown once)");
  await screenshot(page, "private-feed-link");

  // A feed reader, no credentials: the feed, valid Atom, the hostile name as text only.
  const read = await anonymous(url);
  expect(read.status).toBe(200);
  expect(read.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
  const xml = await read.text();
  expect(atomProblems(xml)).toEqual([]);
  expect(xml).toContain('<title type="text">&lt;img src=x onerror=alert(1)&gt;Evil (deepinfra) in “Reader view” changed its price');
  expect(xml).not.toContain("<img");
  // A browser without credentials opens it too, and runs nothing from it.
  const stranger = await browser.newContext();
  const reader = await stranger.newPage();
  const dialogs: string[] = [];
  reader.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const opened = await reader.goto(url);
  expect(opened?.status()).toBe(200);
  await expect(reader.locator("body")).toContainText("Routeboard alerts: Reader view");
  expect(await reader.locator("img").count()).toBe(0);
  expect(dialogs).toEqual([]);

  // The token opens that feed only: not another path, not the view's page, not a changed token.
  const token = new URL(url).searchParams.get("token") as string;
  for (const other of [`/v/${slug}?token=${token}`, `/api/views/${slug}/alerts?token=${token}`, `/v/${slug}/feed.xml?token=${token.slice(0, -2)}xx`]) {
    expect((await anonymous(`${server.url}${other}`)).status, other).toBe(401);
  }

  // Revoked on the panel: the same URL answers 401 to a reader, 404 to a signed-in member.
  await panel.getByRole("button", { name: "Revoke private link" }).click();
  await expect(panel.getByRole("status").filter({ hasText: "revoked" })).toHaveText("Private feed link revoked: it no longer opens the feed.");
  await expect(panel).toContainText("No private link yet.");
  expect((await anonymous(url)).status).toBe(401);
  expect((await fetch(url, { headers: { authorization: basic } })).status).toBe(404);
  // The reader's browser is asked for credentials it does not have (Chromium ends the navigation).
  await expect(stranger.newPage().then((p) => p.goto(url))).rejects.toThrow(/ERR_INVALID_AUTH_CREDENTIALS/);

  // The token was never written to the server's log.
  expect(server.logs()).not.toContain(token);
  await team.close();
  await stranger.close();
});
