import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { startDataServer, MODEL_PAGE as DATA_MODEL_PAGE, type DataServer } from "./data-server";
import { poll, replicaControl, screenshot, scrollToBudget, scrollToHistory, windowShot } from "./helpers";

// Every page passes axe with no serious or critical violation, at desktop and phone width, with
// what loads on scrolling (the charts, the fidelity section) loaded. A new page or section: add it to PAGES.

const KIMI = "moonshotai/kimi-k2.5";

interface PageCase {
  name: string;
  /** The address, or how to make one (a saved view needs saving first). */
  path: string | ((request: APIRequestContext) => Promise<string>);
  /** Waits until the page shows what it is there for. */
  ready(page: Page): Promise<void>;
  /** Removes what `path` made for the check, so the rest of the pass does not see it. */
  cleanup?(request: APIRequestContext): Promise<void>;
}

const modelPageReady = async (page: Page) => {
  await expect(page.getByTestId("summary")).toContainText("providers included");
  // Each section that loads on scrolling is scrolled to by its stable anchor, in page order, and
  // waited for: one that loads grows and moves the next one away from where a single scroll left it.
  await scrollToBudget(page);
  await scrollToHistory(page);
  // Its code and five series are fetched only now: give them longer than a click's effect.
  await expect(page.getByRole("region", { name: "History" }).getByRole("figure").first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("region", { name: "Change log" })).toBeVisible();
  await page.locator("#fidelity").scrollIntoViewIfNeeded();
  await expect(page.getByRole("region", { name: "Fidelity" })).toBeVisible({ timeout: 30_000 });
};

const PAGES: PageCase[] = [
  { name: "home", path: "/", ready: async (page) => void (await expect(page.getByRole("heading", { level: 1 })).toBeVisible()) },
  { name: "model page", path: `/models/${KIMI}`, ready: modelPageReady },
  {
    name: "model page with rules set",
    path: `/models/${KIMI}?xq=int4,fp4,mxfp4,nvfp4&xp=fireworks&upmin=95`,
    ready: modelPageReady,
  },
  { name: "spend", path: "/spend", ready: async (page) => void (await expect(page.getByRole("heading", { level: 1 })).toBeVisible()) },
  {
    name: "saved view",
    path: async (request) => {
      const response = await request.post("/api/views", { data: { name: "Axe check", modelId: KIMI, query: "xq=int4&upmin=95" } });
      expect(response.status()).toBe(201);
      return `/v/${(await response.json()).slug}`;
    },
    ready: modelPageReady,
  },
  {
    name: "alerts",
    // A channel whose receiver is not there, tested once: the page with a channel and a delivery being retried.
    path: async (request) => {
      const created = await request.post("/api/alerts/channels", { data: { kind: "webhook", name: "Axe check", url: "http://127.0.0.1:9/axe-hook" } });
      expect(created.status()).toBe(201);
      const { channel } = await created.json();
      expect((await request.post(`/api/alerts/channels/${channel.id}/test`)).status()).toBe(202);
      return "/alerts";
    },
    cleanup: async (request) => {
      const { channels } = (await (await request.get("/api/alerts/channels")).json()) as { channels: Array<{ id: number; name: string }> };
      for (const c of channels.filter((c) => c.name === "Axe check")) expect((await request.delete(`/api/alerts/channels/${c.id}`)).status()).toBe(204);
    },
    ready: async (page) => {
      await expect(page.getByRole("heading", { name: "Alerts", level: 1 })).toBeVisible();
      const card = page.getByRole("article", { name: /Axe check/ }).first();
      await expect(card.getByRole("table").getByRole("row").nth(1)).toContainText(/retrying|failed/, { timeout: 20_000 });
    },
  },
  { name: "notifications", path: "/notifications", ready: async (page) => void (await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible()) },
  { name: "not found", path: "/models/nobody/nothing", ready: async (page) => void (await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible()) },
  {
    name: "broken link",
    path: "/models/moonshotai/kimi%E0%A4%A",
    ready: async (page) => void (await expect(page.getByRole("heading", { name: "Broken link" })).toBeVisible()),
  },
];

const WIDTHS = [
  { label: "1280", width: 1280, height: 900 },
  { label: "390", width: 390, height: 844 },
];

test.describe("accessibility (axe)", () => {
  test.beforeAll(async ({ request }) => {
    await replicaControl(request, "reset");
    await poll(request);
    await poll(request);
  });

  for (const pageCase of PAGES) {
    for (const { label, width, height } of WIDTHS) {
      test(`${pageCase.name} at ${label} px: no serious or critical axe violation`, async ({ page, request }) => {
        test.setTimeout(60_000); // axe walks every node of the page: 15 s for the model page in a CI run
        const path = typeof pageCase.path === "string" ? pageCase.path : await pageCase.path(request);
        await page.setViewportSize({ width, height });
        await page.goto(path);
        const results = await pageCase
          .ready(page)
          .then(() => new AxeBuilder({ page }).analyze())
          .finally(() => pageCase.cleanup?.(request));
        const blocking = results.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${v.id} (${v.impact}): ${v.help}; at ${v.nodes.slice(0, 5).map((n) => n.target.join(" ")).join(" | ")}`);
        expect(blocking, `${pageCase.name} at ${label} px`).toEqual([]);
        await screenshot(page, `axe-${pageCase.name.replaceAll(" ", "-")}-${label}`);
      });
    }
  }
});

/** axe's serious and critical violations on the page as it is, each with where it is. */
async function blockingViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help}; at ${v.nodes.slice(0, 5).map((n) => n.target.join(" ")).join(" | ")}`);
}

// The same check on pages with what a team's pages hold after a while (issue 18, item 14): a team
// note, a finished probe with its verdicts, imported usage with a flagged reconciliation day, and
// the account's keys. Its own server (a management key and sign-in), so the pass above keeps its
// seed data.
test.describe("accessibility (axe) of pages with data in them", () => {
  test.describe.configure({ mode: "serial", timeout: 300_000 });
  let data: DataServer;
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(300_000); // a server of its own, a poll cycle and a probe run, on a shared machine
    data = await startDataServer(browser);
  });
  test.afterAll(async () => data?.stop());

  for (const { label, width, height } of WIDTHS) {
    test(`the model page with a team note and a finished probe at ${label} px: no serious or critical axe violation`, async () => {
      const context = await data.context({ width, height });
      const page = await context.newPage();
      await page.goto(DATA_MODEL_PAGE);
      await modelPageReady(page);
      // The data is there: the team's note and the probe's verdicts, on the rows and in the run.
      await expect(page.getByRole("button", { name: "Edit team note for Fireworks" })).toHaveCount(1);
      const run = page.getByRole("region", { name: /^Probe \d+$/ });
      await expect(run.getByTestId("probe-status")).toHaveText("done");
      await expect(run.getByRole("row").filter({ hasText: "fireworks" })).toContainText("differs by more than Δ");
      await expect(page.getByText("differs by more than Δ", { exact: true }).first()).toBeAttached();
      expect(await blockingViolations(page), `model page with data at ${label} px`).toEqual([]);
      await run.scrollIntoViewIfNeeded();
      await windowShot(page, `axe-data-probe-${label}`);
      await context.close();
    });

    test(`the spend page with keys, activity, imported usage and a flagged day at ${label} px: no serious or critical axe violation`, async () => {
      const context = await data.context({ width, height });
      const page = await context.newPage();
      await page.goto("/spend");
      const keys = page.getByRole("table", { name: "API keys" });
      await expect(keys.getByRole("row")).toHaveCount(4);
      await expect(keys.getByRole("button", { name: "Use for pipeline: “Research notebook”" })).toBeVisible();
      const reconciliation = page.getByRole("table", { name: "Reconciliation" });
      await expect(reconciliation.getByRole("row").filter({ hasText: /differs by \$/ })).toHaveCount(1);
      await expect(page.getByRole("table", { name: "Actual prices per provider" })).toBeVisible();
      await expect(page.getByRole("table", { name: "Actual usage by provider" }).getByRole("row", { name: /DeepInfra/ })).toBeVisible();
      await expect(page.getByRole("table", { name: "Key changes" }).getByRole("row")).toHaveCount(2);
      // The activity chart is drawn before axe looks: it loads when it comes near the viewport.
      const chart = page.getByRole("figure", { name: "Actual spend per day and provider" });
      await chart.scrollIntoViewIfNeeded();
      await expect(chart.locator(".recharts-bar-rectangle").first()).toBeVisible();
      expect(await blockingViolations(page), `spend page with data at ${label} px`).toEqual([]);
      await screenshot(page, `axe-data-spend-${label}`);
      await context.close();
    });
  }
});

test("the broken-link page looks like the app: its header, colours and font, a card, no scripts", async ({ page }) => {
  const cspErrors: string[] = [];
  // The page's own 400 is logged too; what must not appear is a refusal by the CSP.
  page.on("console", (m) => m.type() === "error" && /Content Security Policy|Refused/i.test(m.text()) && cspErrors.push(m.text()));
  const response = await page.goto("/v/%zz");
  expect(response?.status()).toBe(400);
  expect(response?.headers()["content-security-policy"]).toContain("default-src 'none'");
  await expect(page.getByRole("heading", { name: "Broken link" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Spend" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to the watched models" })).toHaveAttribute("href", "/");
  // The inline style applied (the CSP allows it): the app's slate background and system font.
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(248, 250, 252)");
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain("system-ui");
  expect(await page.locator("script").count()).toBe(0);
  expect(cspErrors).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 700 });
  await screenshot(page, "broken-link-styled-1280");
  await page.setViewportSize({ width: 390, height: 700 });
  await screenshot(page, "broken-link-styled-390");
});
