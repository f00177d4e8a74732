import { expect, test } from "@playwright/test";
import { poll, replicaControl, screenshot } from "./helpers";

test.describe("foundation: polls stored and shown", () => {
  test.beforeEach(async ({ request }) => replicaControl(request, "reset"));

  test("the home page lists the watched model and its latest poll, labelled as demo data", async ({ page, request }) => {
    await poll(request);
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Watched models" })).toBeVisible();
    await expect(page.getByRole("note", { name: "Demo data" })).toContainText("Demo data");
    const card = page.getByRole("region", { name: /Kimi K2\.5/ });
    await expect(card.getByRole("group", { name: "Last poll" })).toContainText("Last poll OK");
    await expect(card).toContainText("of 11");
    await screenshot(page, "home");

    await card.getByRole("link", { name: "MoonshotAI: Kimi K2.5" }).click();
    await expect(page).toHaveURL(/\/models\/moonshotai\/kimi-k2\.5/);
    const table = page.getByRole("table", { name: "Providers" });
    await expect(table.getByRole("row")).toHaveCount(12);
    await expect(table.getByRole("row", { name: /DeepInfra/ })).toContainText("$0.45");
  });

  test("a failed poll is said plainly and the last good data stays on the page", async ({ page, request }) => {
    await poll(request);
    await replicaControl(request, "fault", { kind: "500", times: 10, path: "/endpoints" });
    const result = await poll(request);
    expect(result.models[0].ok).toBe(false);

    await page.goto("/models/moonshotai/kimi-k2.5");
    const alert = page.getByRole("alert", { name: "Last poll failed" });
    await expect(alert).toContainText("Failed");
    await expect(alert).toContainText("HTTP 500");
    await expect(alert).toContainText("Stale since");
    await expect(page.getByRole("table", { name: "Providers" }).getByRole("row")).toHaveCount(12);
    await screenshot(page, "model-stale");
  });

  test("every kind of OpenRouter failure is said on the page in its own words, over the last good data", async ({ page, request }) => {
    await poll(request);
    const faults: Array<[Record<string, unknown>, RegExp]> = [
      [{ kind: "503" }, /HTTP 503/],
      [{ kind: "401" }, /HTTP 401/],
      [{ kind: "429", retryAfter: 3600 }, /longer than we wait/],
      [{ kind: "malformed" }, /not JSON/],
      [{ kind: "wrong_shape" }, /data\.endpoints/],
      [{ kind: "empty" }, /empty endpoint list/],
      // Hanging on every attempt: four 2 s timeouts (the test server's OPENROUTER_TIMEOUT_SECONDS).
      [{ kind: "hang" }, /No answer from .* within 2000 ms/],
    ];
    for (const [fault, message] of faults) {
      await replicaControl(request, "reset");
      await replicaControl(request, "fault", { ...fault, times: 10, path: "/endpoints" });
      const result = await poll(request);
      expect(result.models[0].ok, fault.kind as string).toBe(false);
      await page.goto("/models/moonshotai/kimi-k2.5");
      const alert = page.getByRole("alert", { name: "Last poll failed" });
      await expect(alert, fault.kind as string).toContainText("Failed");
      await expect(alert, fault.kind as string).toContainText(message);
      await expect(alert, fault.kind as string).toContainText("Stale since");
      await expect(page.getByRole("table", { name: "Providers" }).getByRole("row")).toHaveCount(12);
    }
    await replicaControl(request, "reset");
  });

  test("Poll now fetches a new snapshot from the page", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("button", { name: "Poll now" }).click();
    await expect(page.getByRole("status")).toContainText("Polled 1 model");
  });

  test("an unknown model answers a clear not-found page", async ({ page, request }) => {
    await poll(request); // a snapshot from the replica exists, whatever ran before
    const response = await page.goto("/models/nobody/nothing");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    // The server shows the replica's data: the not-found page says so like every other page.
    await expect(page.getByRole("note", { name: "Demo data" })).toBeVisible();
  });
});
