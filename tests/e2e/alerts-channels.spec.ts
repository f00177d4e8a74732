import { expect, test } from "@playwright/test";
import { signatureProblem, startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { screenshot } from "./helpers";

// The alerts page: a user adds a webhook channel pointing at a receiver this test runs, keeps the
// secret shown once, presses "Send test", and sees the delivery "sent" in the channel's history;
// the receiver got a body signed with that secret. The server runs with ALLOW_PRIVATE_WEBHOOKS=true
// (tests/e2e/serve.ts), so a receiver on 127.0.0.1 is allowed.

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

test("add a webhook channel, send a test, see it delivered and signed", async ({ page, request }) => {
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Alerts" }).click();
  await expect(page.getByRole("heading", { name: "Alerts", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "Add a channel" });

  // Bad input first: each message under its field, nothing saved.
  await form.getByLabel("Webhook URL").fill("ftp://example.com/hook");
  await form.getByRole("button", { name: "Add channel" }).click();
  await expect(form.getByText("must not be empty")).toBeVisible();
  await expect(form.getByText("must start with http:// or https://")).toBeVisible();
  await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await screenshot(page, "alerts-form-errors");

  const hookPath = "/hooks/e2e-path-token-1234";
  await form.getByLabel("Name").fill("E2E receiver");
  await form.getByLabel("Webhook URL").fill(`${receiver.url}${hookPath}`);
  await form.getByRole("button", { name: "Add channel" }).click();
  const secretNote = page.getByRole("status", { name: "New signing secret" });
  await expect(secretNote).toContainText("it is not shown again");
  const secret = (await secretNote.locator("code").textContent()) ?? "";
  expect(secret).toMatch(/^whsec_/);

  const card = page.getByRole("article", { name: /E2E receiver/ });
  await expect(card).toContainText(`${receiver.url}/…1234`);
  await expect(card).toContainText("Nothing sent yet");
  await card.getByRole("button", { name: "Send test" }).click();
  const history = card.getByRole("table", { name: "Deliveries to E2E receiver" });
  const row = history.getByRole("row").nth(1);
  await expect(row).toContainText('Test message from Routeboard to the channel "E2E receiver".');
  await expect(row.getByText("sent", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(row).toContainText("answered 200");
  await screenshot(page, "alerts-test-sent");

  // The receiver got one message, signed with the secret the page showed.
  expect(receiver.received).toHaveLength(1);
  const got = receiver.received[0];
  expect(got.path).toBe(hookPath);
  expect(signatureProblem(got, secret)).toBeNull();
  const body = JSON.parse(got.body);
  expect(body).toMatchObject({ schemaVersion: 1, kind: "test", view: null, summary: 'Test message from Routeboard to the channel "E2E receiver".' });
  expect(got.headers["x-routeboard-event-id"]).toBe(body.eventId);

  // After saving, neither the URL nor the secret comes back from the API or the page.
  for (const path of ["/api/alerts/channels", "/api/alerts/deliveries?limit=100"]) {
    const text = await (await request.get(path)).text();
    expect(text, path).not.toContain("e2e-path-token");
    expect(text, path).not.toContain(secret);
  }
  await page.reload();
  await expect(card).toBeVisible();
  expect(await page.content()).not.toContain("e2e-path-token");
  expect(await page.content()).not.toContain(secret);

  // Disable, then delete with a confirmation.
  await card.getByRole("button", { name: "Disable" }).click();
  await expect(card.getByRole("status")).toHaveText("Disabled: new alerts are not sent here.");
  await expect(card.getByRole("button", { name: "Enable" })).toBeVisible();
  await expect(card.getByRole("button", { name: "Send test" })).toBeDisabled();
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "alerts-390");
  await page.setViewportSize({ width: 1280, height: 900 });
  await card.getByRole("button", { name: "Delete" }).click();
  await expect(card).toContainText("also deletes its delivery history");
  await card.getByRole("button", { name: "Delete for good" }).click();
  await expect(page.getByRole("article", { name: /E2E receiver/ })).toHaveCount(0);
});

test("the channel API: same-origin changes only, field-named 400s, the secret once, never the URL", async ({ request }) => {
  const foreign = await request.post("/api/alerts/channels", {
    headers: { origin: "https://evil.example" },
    data: { kind: "webhook", name: "Evil", url: `${receiver.url}/evil` },
  });
  expect(foreign.status()).toBe(403);

  const bad = await request.post("/api/alerts/channels", { data: { kind: "pager", name: "", url: "javascript:alert(1)" } });
  expect(bad.status()).toBe(400);
  const message = (await bad.json()).error.message as string;
  expect(message).toContain("kind: must be webhook or slack");
  expect(message).toContain("name: must not be empty");
  expect(message).toContain("url: must start with http:// or https://");
  const slackSecret = await request.post("/api/alerts/channels", { data: { kind: "slack", name: "S", url: `${receiver.url}/s`, secret: "0123456789abcdefXYZ" } });
  expect((await slackSecret.json()).error.message).toBe("secret: a Slack channel has no secret");

  const created = await request.post("/api/alerts/channels", { data: { kind: "slack", name: "API Slack", url: `${receiver.url}/services/T0/B0/api-slack-token` } });
  expect(created.status()).toBe(201);
  const { channel, secret } = await created.json();
  expect(secret).toBeNull();
  expect(channel).toEqual({ id: channel.id, kind: "slack", name: "API Slack", urlHint: `${receiver.url}/…oken`, enabled: true, signed: false, createdAt: channel.createdAt });

  const renamed = await request.patch(`/api/alerts/channels/${channel.id}`, { data: { name: "API Slack 2", url: `${receiver.url}/services/T0/B0/other-token-5678` } });
  expect(renamed.status()).toBe(200);
  expect((await renamed.json()).channel).toMatchObject({ name: "API Slack 2", urlHint: `${receiver.url}/…5678` });
  expect((await request.patch(`/api/alerts/channels/${channel.id}`, { data: {} })).status()).toBe(400);
  expect((await request.patch("/api/alerts/channels/999999", { data: { enabled: false } })).status()).toBe(404);
  expect((await (await request.get("/api/alerts/deliveries?limit=500")).json()).error.message).toBe("limit: must be at most 100");

  expect((await request.delete(`/api/alerts/channels/${channel.id}`)).status()).toBe(204);
  expect((await request.delete(`/api/alerts/channels/${channel.id}`)).status()).toBe(404);
});
