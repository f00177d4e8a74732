import { expect, test } from "@playwright/test";
import { atomProblems } from "../helpers/atom-validator";
import { poll, replicaControl, screenshot } from "./helpers";

// The events half of the alerts, clicked through: a saved view's alerts turned on from the model
// page, a price change in the replica, "Poll now", the unread count in the header, the
// notification, and the view's Atom feed. It uses its own saved view and turns its alerts off at
// the end, and puts the replica back, so the specs after it see the figures they expect.

const KIMI = "moonshotai/kimi-k2.5";
const VENICE_PRICE = { prompt: "0.0000008", completion: "0.00000375", request: "0", image: "0", discount: 0 };

test.describe("alerts: events", () => {
  test.beforeAll(async ({ request }) => {
    await replicaControl(request, "reset");
    await poll(request);
  });
  test.afterAll(async ({ request }) => {
    await replicaControl(request, "reset");
  });

  test("turn alerts on for a saved view, change the replica, Poll now: the unread count, the notification and the feed", async ({ page, request }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/models/${KIMI}`);
    await page.getByLabel("View name").fill("Alerts walk-through");
    await page.getByRole("button", { name: "Save view" }).click();
    const saved = page.getByRole("status").filter({ hasText: "short link" });
    const slug = /\/v\/([a-z0-9]+)/.exec((await saved.textContent()) ?? "")?.[1] as string;
    expect(slug).toBeTruthy();

    // The view's "Alerts" control: on, every condition on, the default threshold.
    await page.getByRole("button", { name: "Alerts of Alerts walk-through" }).click();
    const form = page.getByRole("form", { name: "Alerts of Alerts walk-through" });
    await form.getByLabel("Alerts on").check();
    await expect(form.getByLabel("The routing export changes")).toBeChecked();
    await expect(form.getByLabel("Generations judged trusted under this view turn suspect (provenance)")).toBeChecked();
    await form.getByRole("button", { name: "Save alerts" }).click();
    await expect(form.getByRole("status")).toHaveText("Alerts on for “Alerts walk-through”: the next poll records its answer; changes after it are notified.");
    await screenshot(page, "alerts-view-control");
    expect(await (await request.get(`/api/views/${slug}/alerts`)).json()).toMatchObject({ enabled: true, uptime: true, uptimeThreshold: null, watching: false });

    // The first poll records the view's answer, and says nothing.
    await poll(request);
    expect(await (await request.get(`/api/views/${slug}/alerts`)).json()).toMatchObject({ watching: true });
    const before = (await (await request.get("/api/notifications")).json()).unread as number;

    // Venice raises its input price; "Poll now" on the page.
    await replicaControl(request, "patch", { model: KIMI, tag: "venice", set: { pricing: VENICE_PRICE } });
    await page.getByRole("button", { name: "Poll now" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Polled" })).toContainText("Polled");

    await page.reload();
    await expect(page.getByTestId("unread-count")).toHaveText(`${before + 1} unread`);
    await page.getByTestId("notifications-link").click();
    await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
    const item = page.getByRole("listitem", { name: "Venice in “Alerts walk-through” changed its price ($/M input / output): 0.75 / 3.75 → 0.80 / 3.75" });
    await expect(item).toBeVisible();
    await expect(item).toContainText("Endpoint");
    await expect(item).toContainText("demo");
    await expect(item).toContainText("Old: input $0.75/M, output $3.75/M");
    await expect(item).toContainText("New: input $0.80/M, output $3.75/M");
    await expect(item.getByRole("link", { name: "Alerts walk-through" })).toHaveAttribute("href", `/v/${slug}`);
    await screenshot(page, "alerts-notifications");

    // The view's feed: Atom, with the event.
    const feed = await request.get(`/v/${slug}/feed.xml`);
    expect(feed.status()).toBe(200);
    expect(feed.headers()["content-type"]).toBe("application/atom+xml; charset=utf-8");
    const xml = await feed.text();
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(xml).toContain('<title type="text">Venice in “Alerts walk-through” changed its price');
    expect(atomProblems(xml)).toEqual([]);
    expect((await request.get("/v/nosuchview1/feed.xml")).status()).toBe(404);
    // Linked from the view, for readers and people.
    await page.goto(`/v/${slug}`);
    await expect(page.locator('link[rel="alternate"][type="application/atom+xml"]')).toHaveAttribute("href", new RegExp(`/v/${slug}/feed\\.xml$`));
    await page.getByRole("link", { name: "Alerts feed of Alerts walk-through" }).click();
    await expect(page.locator("body")).toContainText("Routeboard alerts: Alerts walk-through");
    await screenshot(page, "alerts-feed");

    // Read: the count goes.
    await page.goto("/notifications");
    await expect(page.getByRole("note", { name: "Demo data" })).toBeVisible(); // the replica's data, as on every page
    await page.getByRole("button", { name: "Mark all read" }).click();
    await expect(page.getByTestId("unread-summary")).toHaveText("Everything is read.");
    await expect(page.getByTestId("unread-count")).toHaveCount(0);

    // The alerts page lists what is watched: this view, on, with its conditions.
    await page.goto("/alerts");
    await expect(page.getByRole("note", { name: "Demo data" })).toBeVisible();
    // The test server, like the demo, lets webhooks reach this machine, and the page says so.
    await expect(page.getByRole("note", { name: "Private webhook addresses allowed" })).toContainText("ALLOW_PRIVATE_WEBHOOKS=true, which npm run demo sets");
    const watched = page.getByRole("list", { name: "Saved views and their alerts" }).getByRole("listitem").filter({ hasText: "Alerts walk-through" });
    await expect(watched).toContainText("On: included set, routing export, endpoint changes, uptime, probe verdicts, trusted samples turned suspect");
    await screenshot(page, "alerts-watched");

    const off = await request.put(`/api/views/${slug}/alerts`, { data: { enabled: false } });
    expect(off.status()).toBe(200);
    const bad = await request.put(`/api/views/${slug}/alerts`, { data: { uptimeThreshold: 140 } });
    expect(bad.status()).toBe(400);
    expect((await bad.json()).error.message).toBe("uptimeThreshold: must be between 0 and 100");
  });
});
