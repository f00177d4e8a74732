import Decimal from "decimal.js";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { poll, REPLICA_URL, replicaControl, screenshot, scrollToBudget } from "./helpers";

// The home page as the team opens it in the morning: per watched model, what each saved view (or
// the default view) includes now, the cheapest and the worst uptime of it, the last day's changes
// and the last poll; and the spend. Its numbers must agree with the model page opened on the same
// view, and with the routing API of that view.

const KIMI = "moonshotai/kimi-k2.5";
const FULL_PRECISION = "xq=int4,fp4,mxfp4,nvfp4&xp=fireworks&upmin=95";

interface ProviderRow {
  tag: string;
  provider: string;
  uptime30m: number | null;
}

/** What the model page says on a view: "N of M providers included" and the calculator's cheapest. */
async function modelPageFigures(page: Page, url: string) {
  await page.goto(url);
  const summary = (await page.getByTestId("summary").textContent()) ?? "";
  const [, included, total] = /(\d+) of (\d+) providers included/.exec(summary) ?? [];
  await scrollToBudget(page);
  const budget = page.getByRole("status", { name: "Budget summary" });
  await expect(budget).toContainText("Cheapest included");
  const budgetText = (await budget.textContent()) ?? "";
  const planCost = /Cheapest included[^$]*(\$[\d,]+\.\d\d)/.exec(budgetText)?.[1];
  return { included: `${included} of ${total}`, planCost, budgetText };
}

/** The worst 30-minute uptime among the tags a routing answer includes, as the page formats it. */
async function worstIncludedUptime(request: APIRequestContext, routingUrl: string): Promise<{ text: string; count: number }> {
  const routing = await (await request.get(routingUrl)).json();
  const only: string[] = routing.provider.only;
  const providers: { endpoints: ProviderRow[] } = await (await request.get(`/api/models/${KIMI}/providers`)).json();
  const uptimes = providers.endpoints.filter((e) => only.includes(e.tag)).flatMap((e) => (e.uptime30m === null ? [] : [e.uptime30m]));
  return { text: `${Math.min(...uptimes).toFixed(1)}%`, count: only.length };
}

test.describe("home page dashboard", () => {
  test.beforeEach(async ({ request }) => {
    await replicaControl(request, "reset");
    // Earlier tests may have saved views of the model: start from none, so the default view shows.
    const { views }: { views: Array<{ slug: string }> } = await (await request.get(`/api/views?model=${KIMI}`)).json();
    for (const v of views) expect((await request.delete(`/api/views/${v.slug}`)).ok()).toBe(true);
  });
  test.afterAll(async ({ request }) => replicaControl(request, "reset"));

  test("per view: included, cheapest and worst uptime agree with the model page; changes, last poll and spend", async ({ page, request }) => {
    await poll(request);
    // A change for the last day's count: Together starts reporting fp8.
    await replicaControl(request, "patch", { model: KIMI, tag: "together", set: { quantization: "fp8" } });
    await poll(request);

    // No saved view yet: the default view, with the model page's default rules.
    await page.setViewportSize({ width: 1280, height: 900 });
    const byDefault = await modelPageFigures(page, `/models/${KIMI}`);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Watched models" })).toBeVisible();
    const card = page.getByRole("region", { name: /Kimi K2\.5/ });
    await expect(card).toContainText("No saved view yet: the default view");
    const defaultRow = card.getByRole("listitem", { name: "View Default view" });
    await expect(defaultRow).toContainText(byDefault.included);
    await expect(defaultRow).toContainText(`plan ${byDefault.planCost}`);
    const cheapestLine = (await defaultRow.getByText(/ · plan \$/).textContent()) ?? "";
    const defaultCheapest = /^(.+?) · plan/.exec(cheapestLine.trim())?.[1] ?? "(none)";
    expect(byDefault.budgetText).toContain(defaultCheapest); // the same provider is the cheapest there
    const defaultWorst = await worstIncludedUptime(request, `/api/models/${KIMI}/routing`);
    await expect(defaultRow.getByText(defaultWorst.text, { exact: true })).toBeVisible();
    // The same figures worked out by hand from the replica's data (replica/data/kimi-k2.5.ts): the
    // default rules leave out only BaseTen (status -5); the plan is 10M input and 60M output, so
    // Chutes ($0.40 / $2.20) costs 4.00 + 132.00 = $136.00, the least; the worst 30-minute uptime
    // at the second poll is Venice's, 97.4 + 1.2 × sin(0.9 + 10 × 1.7) = 96.42.
    expect(byDefault).toMatchObject({ included: "10 of 11", planCost: "$136.00" });
    await expect(defaultRow).toContainText("10 of 11");
    await expect(defaultRow).toContainText("$0.40 / $2.20");
    await expect(defaultRow).toContainText("Chutes · plan $136.00");
    expect(defaultWorst).toEqual({ text: "96.4%", count: 10 });
    await screenshot(page, "home-default-view-1280");

    // A saved view: its figures on the home page are the model page's on /v/{slug}.
    const saved = await request.post("/api/views", { data: { name: "Full precision, 95% up", modelId: KIMI, query: FULL_PRECISION } });
    expect(saved.ok()).toBe(true);
    const { slug } = await saved.json();
    const onModelPage = await modelPageFigures(page, `/v/${slug}`);
    expect(onModelPage).toMatchObject({ included: "4 of 11", planCost: "$139.50" });
    expect(onModelPage.budgetText).toContain("DeepInfra");
    const worst = await worstIncludedUptime(request, `/api/views/${slug}/routing`);
    expect(worst).toEqual({ text: "96.4%", count: 4 }); // Venice again, by hand as above

    await page.goto("/");
    await expect(card).toContainText("Saved views (1)");
    const row = card.getByRole("listitem", { name: "View Full precision, 95% up" });
    await expect(row).toContainText("4 of 11");
    await expect(row).toContainText("$0.45 / $2.25"); // DeepInfra's $/M, the cheapest for the plan
    await expect(row).toContainText("DeepInfra · plan $139.50");
    await expect(row.getByText(worst.text, { exact: true })).toBeVisible();
    await expect(row.getByRole("link", { name: "Full precision, 95% up" })).toHaveAttribute("href", `/v/${slug}`);

    // Changes in the last 24 hours: the count is the change log's, drawn as a sparkline.
    const changes: { changes: Array<{ observedAt: string }> } = await (await request.get(`/api/models/${KIMI}/changes?limit=200`)).json();
    const dayAgo = Date.now() - 86_400_000;
    const lastDay = changes.changes.filter((c) => new Date(c.observedAt).getTime() > dayAgo).length;
    expect(lastDay).toBeGreaterThanOrEqual(1); // at least Together's switch
    const recent = card.getByRole("group", { name: "Changes in the last 24 hours" });
    await expect(recent.getByRole("img", { name: new RegExp(`^${lastDay} changes? in the last 24 hours, most \\(\\d+\\) in the last hour$`) })).toBeVisible();
    await expect(recent).toContainText(String(lastDay));

    // The last poll: ok, and how long ago.
    await expect(card.getByRole("group", { name: "Last poll" })).toContainText(/Last poll OK, (just now|\d+ min ago)/);

    // The spend, as /spend computes it (the replica's key: $100 budget by default, two snapshots).
    const spend = page.getByRole("region", { name: "Spend" });
    await expect(spend.getByRole("definition").first()).toBeVisible();
    await expect(spend).toContainText("Remaining");
    await expect(spend).toContainText("Runs out");
    const onHome = (await spend.textContent()) ?? "";
    await page.goto("/spend");
    const onSpendPage = (await page.getByLabel("Spend summary").textContent()) ?? "";
    const money = (label: string, text: string) => /−?\$[\d,]+\.\d\d/.exec(text.slice(text.indexOf(label) + label.length))?.[0] ?? `no ${label}`;
    const remaining = money("Remaining", onSpendPage);
    // Remaining is the budget less what was spent since its start, to the cent.
    const dollars = (text: string) => new Decimal(text.replace("−", "-").replace(/[$,]/g, ""));
    const budget = money("Budget", onHome);
    expect(dollars(remaining).equals(dollars(budget).minus(dollars(money("Spent since start", onSpendPage))))).toBe(true);
    await page.goto("/");
    await expect(spend).toContainText(`Remaining${remaining}`);
    await screenshot(page, "home-1280");

    // A failed poll says so on the card, with the age of the data still shown.
    await replicaControl(request, "fault", { kind: "401", path: "/endpoints" }); // not retried: fails at once
    const failed = await request.post("/api/poll");
    expect((await failed.json()).models[0].ok).toBe(false);
    await page.goto("/");
    await expect(card.getByRole("group", { name: "Last poll" })).toContainText("Last poll failed");
    await expect(card.getByRole("group", { name: "Last poll" })).toContainText(/Showing data from (just now|\d+ min ago)/);

    // At phone width everything still reads, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    await expect(row).toContainText("DeepInfra · plan $139.50");
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 5_000 })
      .toBeLessThanOrEqual(390);
    await screenshot(page, "home-390");
  });

  test("with the demo's drift on, Poll now brings a change to the change log", async ({ page, request }) => {
    expect((await request.post(`${REPLICA_URL}/__replica/drift`, { data: { seed: 1 } })).ok()).toBe(true);
    await poll(request); // takes up whatever differs from the last test's data, and the first drift step
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/");
    const recent = page.getByRole("region", { name: /Kimi K2\.5/ }).getByRole("group", { name: "Changes in the last 24 hours" });
    const count = async () => Number((await recent.getByRole("img").getAttribute("aria-label"))?.match(/^(\d+) change/)?.[1] ?? 0);
    const before = await count();

    await page.getByRole("button", { name: "Poll now" }).click();
    await expect(page.getByRole("status").filter({ hasText: /poll/i })).toBeVisible();
    await expect
      .poll(async () => {
        await page.goto("/");
        return count();
      })
      .toBe(before + 1);

    // The change is a price move, newest in the model's change log.
    const log: { changes: Array<{ kind: string; before: string; after: string }> } = await (await request.get(`/api/models/${KIMI}/changes?limit=1`)).json();
    expect(log.changes[0].kind).toBe("price");
    expect(log.changes[0].before).not.toBe(log.changes[0].after);
    expect((await request.post(`${REPLICA_URL}/__replica/drift`, { data: { enabled: false } })).ok()).toBe(true);
  });
});
