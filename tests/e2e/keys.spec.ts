import { expect, test, type Page } from "@playwright/test";
import { SEEDED_PIPELINE_SECRET } from "../../replica/keys";
import { reloadUntilReadSince, screenshot } from "./helpers";
import { BASIC_PASSWORD, BASIC_USER, CRON_SECRET, FAKE_MANAGEMENT_KEY, startSecuredServer, type SecuredServer } from "./secured-server";

// The spend page's Keys section on a server protected by BASIC_AUTH with a management key (the
// replica's): choose the pipeline key, enforce the budget as its limit, stop and restart it, create
// a dedicated key whose secret is shown once, and a management-key failure said on the page.

test.describe.configure({ mode: "serial", timeout: 180_000 }); // long walks through the page on a shared machine

let server: SecuredServer;
const basic = `Basic ${Buffer.from(`${BASIC_USER}:${BASIC_PASSWORD}`).toString("base64")}`;

test.beforeAll(async () => {
  test.setTimeout(240_000); // a server of its own to start, and a first poll cycle, on a shared machine
  // The replica's activity bills exactly at the listed prices, with GLM-5 beside Kimi at two providers.
  server = await startSecuredServer(
    { OPENROUTER_MANAGEMENT_KEY: FAKE_MANAGEMENT_KEY, OPENROUTER_TIMEOUT_SECONDS: "2", WATCHED_MODELS: "moonshotai/kimi-k2.5,z-ai/glm-5" },
    { activityBilling: "list" },
  );
  // One poll cycle, as the cron runs it: a spend snapshot, and the hourly read of OpenRouter's activity.
  const polled = await fetch(`${server.url}/api/poll`, { method: "POST", headers: { authorization: `Bearer ${CRON_SECRET}` } });
  expect(polled.status).toBe(200);
});
test.afterAll(async () => {
  await server?.stop();
});

async function signedIn(browser: import("@playwright/test").Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, httpCredentials: { username: BASIC_USER, password: BASIC_PASSWORD } });
  return context.newPage();
}

async function chatWithSeededKey(): Promise<number> {
  const response = await fetch(`${server.replica.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${SEEDED_PIPELINE_SECRET}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "moonshotai/kimi-k2.5", messages: [{ role: "user", content: "ok?" }] }),
  });
  await response.text();
  return response.status;
}

async function budgetAnswer() {
  const response = await fetch(`${server.url}/api/budget`, { headers: { authorization: basic } });
  expect(response.status).toBe(200);
  return (await response.json()) as { ok: boolean; reason: string; pipelineKey: { limit: string | null; disabled: boolean } | null };
}

test("the activity OpenRouter recorded is shown per day and provider, against the listed prices", async ({ browser }) => {
  const page = await signedIn(browser);
  await page.goto("/spend");
  const activity = page.getByRole("region", { name: "Actual spend per provider" });
  await expect(activity).toContainText("Demo data from the local replica.");
  // The chart (recharts) loads when it comes near the viewport, as a reader scrolls down to it.
  const chart = activity.getByRole("figure", { name: "Actual spend per day and provider" });
  await chart.scrollIntoViewIfNeeded();
  await expect(chart.locator(".recharts-bar-rectangle").first()).toBeVisible();
  const prices = activity.getByRole("table", { name: "Actual prices per provider" });
  // Billed exactly at list: every provider at 100.0%, each model compared with its own listed price.
  for (const provider of ["DeepInfra", "Novita", "Fireworks", "Parasail", "Together"]) {
    await expect(prices.getByRole("row", { name: new RegExp(`^${provider}`) }).getByRole("cell").nth(6)).toHaveText("100.0%");
  }
  await expect(prices.getByRole("row", { name: /^DeepInfra/ })).toContainText("kimi-k2.5: $0.45 · $2.25");
  await expect(prices.getByRole("row", { name: /^DeepInfra/ })).toContainText("glm-5: $0.80 · $2.56");
  await expect(prices.getByRole("row", { name: /^Fireworks/ })).toContainText("$0.60 · $3.00");
  const together = prices.getByRole("row", { name: /^Together/ });
  await expect(together).toContainText("llama-3.3-70b-instruct: not listed");
  await expect(together).toContainText("on models not listed");
  // Only the activity is there to compare yet: its 30 days are listed as such, collapsed under their count.
  await expect(activity).toContainText("No day has two views to compare yet");
  const lone = activity.getByText("30 days with one view only (OpenRouter activity): nothing to compare, not flagged");
  const loneDays = activity.getByRole("table", { name: "Days with one view" });
  await expect(loneDays).toBeHidden();
  await lone.click();
  await expect(loneDays.getByRole("row")).toHaveCount(31); // header + 30 days
  await expect(loneDays.getByRole("row").nth(1)).toContainText("OpenRouter activity only: nothing to compare");
  await screenshot(page, "keys-activity");
  await page.context().close();
});

test("enforce the budget from the page, see the limit in place, stop and restart the key", async ({ browser }) => {
  const page = await signedIn(browser);
  await page.goto("/spend");
  const keys = page.getByRole("region", { name: "Keys" });
  await expect(keys.getByRole("table", { name: "API keys" }).getByRole("row", { name: /Batch pipeline/ })).toContainText("none");
  await keys.getByRole("button", { name: "Use for pipeline: “Batch pipeline”" }).click();

  const panel = keys.getByRole("group", { name: "Pipeline key", exact: true });
  await expect(panel).toContainText("Batch pipeline");
  await expect(panel.getByRole("note")).toHaveText(/no limit: nothing stops the pipeline/);

  await panel.getByRole("button", { name: "Enforce the budget…" }).click();
  const confirm = panel.getByRole("alertdialog", { name: "Confirm the new limit" });
  await expect(confirm).toContainText("from no limit to $100.00");
  await expect(confirm).toContainText("already spent $41.37");
  await screenshot(page, "keys-confirm");
  await confirm.getByRole("button", { name: "Set the limit to $100.00" }).click();
  await expect(panel.getByRole("status").filter({ hasText: "Limit in place" })).toContainText("OpenRouter now reports $100.00 for “Batch pipeline” (was no limit)");
  const limits = panel.getByLabel("Pipeline key limit", { exact: true });
  await expect(limits).toContainText("Limit at OpenRouter$100.00");
  await expect(limits).toContainText("Left under the limit$58.63");
  await expect(panel.getByRole("note")).toHaveCount(0);
  expect((await budgetAnswer()).pipelineKey?.limit).toBe("100");
  await screenshot(page, "keys-enforced");

  // The emergency stop: OpenRouter (the replica) refuses the key at once, and the pipeline's guard says why.
  expect(await chatWithSeededKey()).toBe(200);
  await panel.getByRole("button", { name: "Emergency stop" }).click();
  await expect(panel).toContainText("Stopped (disabled)");
  expect(await chatWithSeededKey()).toBe(403);
  const stopped = await budgetAnswer();
  expect(stopped).toMatchObject({ ok: false, reason: expect.stringMatching(/disabled/) });
  await screenshot(page, "keys-stopped");

  await panel.getByRole("button", { name: "Re-enable the key" }).click();
  await expect(panel).toContainText("Enabled");
  expect(await chatWithSeededKey()).toBe(200);
  expect((await budgetAnswer()).ok).toBe(true);

  const changes = keys.getByRole("table", { name: "Key changes" });
  await expect(changes.getByRole("row")).toHaveCount(5); // header + pipeline key, limit, stop, start
  await expect(changes.getByRole("row").nth(1)).toContainText("teamBatch pipeline");
  await expect(changes.getByRole("row").nth(1)).toContainText("disabledenabled");
  await expect(changes.getByRole("row").nth(3)).toContainText("no limit$100.00");
  await screenshot(page, "keys-restarted");
  await page.context().close();
});

test("enforcing the budget on a key whose limit resets daily removes the reset, and the read-back shows both", async ({ browser }) => {
  const page = await signedIn(browser);
  await page.goto("/spend");
  const keys = page.getByRole("region", { name: "Keys" });
  await expect(keys.getByRole("table", { name: "API keys" }).getByRole("row", { name: /Nightly evals/ })).toContainText("daily");
  await keys.getByRole("button", { name: "Use for pipeline: “Nightly evals”" }).click();

  const panel = keys.getByRole("group", { name: "Pipeline key", exact: true });
  await expect(panel).toContainText("Nightly evals");
  const limits = panel.getByLabel("Pipeline key limit", { exact: true });
  await expect(limits).toContainText("Limit resetsdaily");
  await expect(limits).toContainText("Left under the limit$5.00"); // today's window: the $12.40 spent before does not count
  await expect(panel.getByRole("note")).toHaveText(/The key's limit \(\$5\.00, resetting daily\) differs from the budget \(\$100\.00\)/);

  await panel.getByRole("button", { name: "Enforce the budget…" }).click();
  const confirm = panel.getByRole("alertdialog", { name: "Confirm the new limit" });
  await expect(confirm).toContainText("from $5.00, resetting daily to $100.00 with no reset?");
  // $100 a day over 30 days, written by hand: 100 × 30
  await expect(confirm).toContainText("The key’s limit resets daily: with the budget as that limit, the key could spend $100.00 again every day, about $3,000.00 a month (30 days).");
  await expect(confirm).toContainText("Enforcing removes the reset");
  await expect(confirm).toContainText("already spent $12.40");
  await screenshot(page, "keys-confirm-reset");
  await confirm.getByRole("button", { name: "Set the limit to $100.00" }).click();
  await expect(panel.getByRole("status").filter({ hasText: "Limit in place" })).toContainText("OpenRouter now reports $100.00 with no reset for “Nightly evals” (was $5.00, resets daily)");
  await expect(limits).toContainText("Limit at OpenRouter$100.00");
  await expect(limits).toContainText("Limit resetsnever");
  await expect(limits).toContainText("Left under the limit$87.60"); // all $12.40 now counts: 100 − 12.40
  await expect(panel.getByRole("note")).toHaveCount(0);
  await expect(keys.getByRole("table", { name: "API keys" }).getByRole("row", { name: /Nightly evals/ })).toContainText("never");
  await expect(keys.getByRole("table", { name: "Key changes" }).getByRole("row").nth(1)).toContainText("$5.00, resets daily$100.00");
  const answer = (await budgetAnswer()).pipelineKey as unknown as Record<string, unknown>;
  expect(answer).toMatchObject({ limit: "100", limitRemaining: "87.6", limitReset: null, stale: false });
  await screenshot(page, "keys-enforced-reset");
  await page.context().close();
});

test("a dedicated key is created with the budget as its limit; its secret is shown once and kept nowhere", async ({ browser }) => {
  const page = await signedIn(browser);
  await page.goto("/spend");
  const keys = page.getByRole("region", { name: "Keys" });
  await keys.getByLabel("New key’s name").fill("Batch run 7");
  await keys.getByRole("button", { name: "Create a key limited to $100.00" }).click();
  const shown = keys.getByRole("region", { name: "New key secret" });
  await expect(shown).toContainText("shown only this once");
  const secret = (await shown.getByLabel("Key secret").textContent()) ?? "";
  expect(secret).toMatch(/^sk-or-v1-[0-9a-f]{64}$/);
  await expect(keys.getByRole("group", { name: "Pipeline key", exact: true })).toContainText("Batch run 7");
  await screenshot(page, "keys-created");

  // The new key works against the replica, and appears in no later page, API answer or log line.
  const chat = await fetch(`${server.replica.baseUrl}/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${secret}` }, body: "{}" });
  expect(chat.status).toBe(200);
  await page.reload();
  await expect(keys.getByRole("table", { name: "API keys" }).getByRole("row", { name: /Batch run 7/ })).toContainText("pipeline key");
  expect(await page.content()).not.toContain(secret);
  const answers = await Promise.all(["/spend", "/api/budget", "/api/health"].map((url) => fetch(`${server.url}${url}`, { headers: { authorization: basic } }).then((r) => r.text())));
  for (const text of answers) expect(text).not.toContain(secret);
  expect(server.logs()).not.toContain(secret);
  await page.context().close();
});

test("a control pressed on a reading that has since gone stale reads the key again, and sends nothing when it cannot", async ({ browser }) => {
  const page = await signedIn(browser);
  await page.goto("/spend");
  const keys = page.getByRole("region", { name: "Keys" });
  const panel = keys.getByRole("group", { name: "Pipeline key", exact: true });
  const changes = keys.getByRole("table", { name: "Key changes" });
  const changesBefore = await changes.textContent();
  const sent = () => server.replica.state.requests.filter((r) => r.method !== "GET" && r.path.startsWith("/api/v1/keys")).length;
  const sentBefore = sent();

  const controls = [
    { name: "The emergency stop", press: () => panel.getByRole("button", { name: "Emergency stop" }).click() },
    {
      name: "Setting the limit",
      press: async () => {
        await panel.getByRole("button", { name: "Enforce the budget…" }).click();
        await panel.getByRole("alertdialog", { name: "Confirm the new limit" }).getByRole("button", { name: /^Set the limit to/ }).click();
      },
    },
  ];
  for (const control of controls) {
    // A page whose reading of the keys is good, with its controls...
    server.replica.state.faults.splice(0);
    await reloadUntilReadSince(page, keys.getByTestId("keys-read-at"), Date.now());
    await expect(panel).toContainText("Enabled");
    // ...then OpenRouter's key API starts failing before the control is pressed.
    await fetch(`${server.replica.url}/__replica/fault`, { method: "POST", body: JSON.stringify({ kind: "500", path: "/keys", times: 100 }) });
    await control.press();
    const refused = page.getByRole("alert").filter({ hasText: `${control.name} failed` });
    await expect(refused).toContainText(`${control.name} failed: OpenRouter’s key API could not be read before the change (HTTP 500`);
    await expect(refused).toContainText("so no change was sent. Nothing changed at OpenRouter or on the dashboard.");
    expect(sent()).toBe(sentBefore);
    await expect(changes).toHaveText(changesBefore ?? "");
    await screenshot(page, `keys-stale-control-${control.name === "Setting the limit" ? "limit" : "stop"}`);
  }

  // Once OpenRouter answers again the key is as it was: enabled, its limit the budget.
  server.replica.state.faults.splice(0);
  const listed = await fetch(`${server.replica.baseUrl}/keys`, { headers: { authorization: `Bearer ${FAKE_MANAGEMENT_KEY}` } });
  const key = ((await listed.json()) as { data: Array<{ name: string; disabled: boolean; limit: number | null }> }).data.find((k) => k.name === "Batch run 7");
  expect(key).toMatchObject({ disabled: false, limit: 100 });
  await page.context().close();
});

for (const kind of ["401", "429", "500", "hang"] as const) {
  test(`a management-key failure (${kind}) is said on the page and changes nothing stored`, async ({ browser }) => {
    const page = await signedIn(browser);
    await page.goto("/spend");
    const keys = page.getByRole("region", { name: "Keys" });
    const changes = keys.getByRole("table", { name: "Key changes" });
    const changesBefore = await changes.textContent();
    // Stored numbers, as the server renders them (the chart is drawn later in the browser).
    const summary = page.getByLabel("Spend summary", { exact: true });
    const actualPrices = page.getByRole("table", { name: "Actual prices per provider" });
    await expect(actualPrices).toBeVisible();
    const [summaryBefore, pricesBefore] = [await summary.textContent(), await actualPrices.textContent()];

    await fetch(`${server.replica.url}/__replica/fault`, { method: "POST", body: JSON.stringify({ kind, path: "/keys", times: 100, retryAfter: 0 }) });
    // A reload within 2 s of the first load is answered by the same shared render, made before the
    // fault: wait for a render that read the keys after it.
    await reloadUntilReadSince(page, keys.getByTestId("keys-read-at"), Date.now());
    await expect(keys).toContainText("Tried to read OpenRouter’s key API at");
    const alert = keys.getByRole("alert");
    await expect(alert).toContainText("OpenRouter’s key API could not be read");
    await expect(alert).toContainText(kind === "hang" ? "No answer from" : `HTTP ${kind}`);
    await expect(alert).toContainText("Nothing stored has changed");
    await expect(alert).toContainText("Last reading of the pipeline key “Batch run 7”");
    await expect(changes).toHaveText(changesBefore ?? "");
    await expect(summary).toHaveText(summaryBefore ?? "");
    await expect(actualPrices).toHaveText(pricesBefore ?? "");
    // No controls while the keys cannot be read.
    await expect(keys.getByRole("button", { name: "Emergency stop" })).toHaveCount(0);
    if (kind === "500") await screenshot(page, "keys-failure");

    await fetch(`${server.replica.url}/__replica/reset`, { method: "POST" });
    await page.context().close();
  });
}
