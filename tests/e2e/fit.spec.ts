import { expect, test, type Locator, type Page } from "@playwright/test";
import { startDataServer, type DataServer } from "./data-server";
import { poll, replicaControl, screenshot, SCREENSHOT_DIR, windowShot } from "./helpers";
import { BASIC_PASSWORD, BASIC_USER, startSecuredServer } from "./secured-server";

// A table and a page that fit (issue 14, items 10, 11, 13 and the failure message of 17): the
// provider table's default columns fit 1280 px, the column chooser is kept in the link, a phone
// gets a card per provider, the model page has an in-page navigation with anchors, and a saved
// view's short link is absolute, copyable and says who saved it.

const MODEL_PAGE = "/models/moonshotai/kimi-k2.5";
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The visible column headers of the provider table, without the sort arrows. */
async function headers(page: Page): Promise<string[]> {
  const texts = await page.getByRole("table", { name: "Providers" }).getByRole("columnheader").allInnerTexts();
  return texts.map((t) => t.replace(/[▲▼↕]/g, "").trim().toLowerCase());
}

/** How far the table's content reaches past its scrolling box (0 when everything shows). */
async function hiddenWidth(page: Page): Promise<number> {
  return page.getByRole("table", { name: "Providers" }).evaluate((table) => {
    const box = table.parentElement as HTMLElement;
    return box.scrollWidth - box.clientWidth;
  });
}

/** Nothing on the page is wider than the window (layout settled first: charts resize late). */
async function expectNoSidewaysScroll(page: Page) {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 5_000 })
    .toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
}

/** The element lies inside the window, left to right. */
async function expectWithinWidth(locator: Locator, width: number, what: string) {
  const box = await locator.boundingBox();
  expect(box, what).not.toBeNull();
  expect(box!.x, what).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, what).toBeLessThanOrEqual(width);
}

const columnsToggle = (page: Page) => page.locator("summary").filter({ hasText: /^Columns/ });

async function openColumns(page: Page) {
  await columnsToggle(page).click();
  return page.getByRole("group", { name: "Columns shown" });
}

test.describe("a table and a page that fit", () => {
  test.beforeAll(async ({ request }) => {
    await replicaControl(request, "reset");
    await poll(request);
  });

  test("at 1280 px the default columns fit with every figure whole; the chosen columns live in the link, a reload and a teammate's copy", async ({ page, browser }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto(MODEL_PAGE);
    const table = page.getByRole("table", { name: "Providers" });
    await expect(table.getByRole("row")).toHaveCount(12);
    expect(await headers(page)).toEqual([
      "provider", "verdict", "quantization", "input $/m", "output $/m", "status", "uptime 30m", "uptime 1d", "latency p50", "throughput p50",
    ]);
    // Nothing of the table is off to the right: no sideways scrolling, no number cut.
    expect(await hiddenWidth(page)).toBeLessThanOrEqual(0);
    await expectNoSidewaysScroll(page);
    await expect(page.getByText("The table is wider than the screen")).toHaveCount(0);
    await expect(page.getByText("5 columns hidden")).toBeVisible();
    await screenshot(page, "fit-table-1280");

    // Show Context, hide Latency: the link carries the choice.
    const chooser = await openColumns(page);
    await chooser.getByRole("checkbox", { name: "Context" }).check();
    await chooser.getByRole("checkbox", { name: "Latency p50" }).uncheck();
    await expect(page).toHaveURL(/cols=quantization,inputPricePerM,outputPricePerM,status,uptime30m,uptime1d,throughputP50,contextLength(&|$)/);
    await expect(table.getByRole("columnheader", { name: /Context/ })).toBeVisible();
    await expect(table.getByRole("columnheader", { name: /Latency/ })).toHaveCount(0);
    await expect(table.getByRole("row", { name: /^DeepInfra/ })).toContainText("262,144");
    await page.screenshot({ path: `${SCREENSHOT_DIR}/fit-column-chooser-1280.png` });
    const chosen = await headers(page);
    expect(chosen).toContain("context");

    await page.reload();
    await expect(table.getByRole("row")).toHaveCount(12);
    expect(await headers(page)).toEqual(chosen);

    const teammate = await browser.newContext({ viewport: DESKTOP });
    const other = await teammate.newPage();
    await other.goto(page.url());
    await expect(other.getByRole("table", { name: "Providers" }).getByRole("row")).toHaveCount(12);
    expect(await headers(other)).toEqual(chosen);
    await teammate.close();

    // Every column at once is wider than the screen: the page says the table scrolls, and the
    // provider column stays put while the rest scroll under it.
    const again = await openColumns(page);
    await again.getByRole("checkbox", { name: "Max output" }).check();
    await columnsToggle(page).click(); // close the chooser
    await expect(page).toHaveURL(/cols=[^&]*maxCompletionTokens/);
    // The rest of the columns by link, as a teammate's link would carry them.
    await page.goto(`${MODEL_PAGE}?cols=tag,quantization,inputPricePerM,outputPricePerM,cacheReadPricePerM,status,uptime5m,uptime30m,uptime1d,latencyP50Ms,throughputP50,contextLength,maxCompletionTokens`);
    await expect(page.getByText("All columns shown.")).toBeVisible();
    expect(await headers(page)).toHaveLength(15);
    await expect(page.getByText("The table is wider than the screen: scroll it sideways")).toBeVisible();
    // The table's head in view (the rules panel above it is taller than a screen's worth of head
    // room): scroll the page down only, so the table's own sideways scroll starts at 0.
    await table.evaluate((t) => window.scrollBy({ top: t.getBoundingClientRect().top - 120 }));
    const firstProvider = table.locator("tbody th").first();
    const before = await firstProvider.boundingBox();
    await table.evaluate((t) => (t.parentElement as HTMLElement).scrollBy({ left: 10_000 }));
    await expect(page.getByText("The table is wider than the screen")).toHaveCount(0); // scrolled to the end
    const after = await firstProvider.boundingBox();
    expect(after?.x).toBe(before?.x);
    await expect(table.getByRole("columnheader", { name: /Max output/ })).toBeInViewport();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/fit-all-columns-scrolled-1280.png` });

    // Back to the default set: the link drops `cols`.
    const last = await openColumns(page);
    await last.getByRole("button", { name: "Back to the default columns" }).click();
    await expect(page).not.toHaveURL(/cols=/);
    expect(await headers(page)).toHaveLength(10);
  });

  test("at 390 px each provider is a card with its verdict, quantization, prices, uptime and actions", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto(`${MODEL_PAGE}?xq=int4,fp4,mxfp4,nvfp4`);
    await expect(page.getByRole("table", { name: "Providers" })).toBeHidden();
    const cards = page.getByRole("list", { name: "Providers" }).getByRole("listitem");
    await expect(cards).toHaveCount(11);
    // The table's sort: cheapest output first among all (Chutes, int4, excluded).
    await expect(cards.first()).toHaveAccessibleName("Chutes");

    const deepinfra = page.getByRole("listitem", { name: "DeepInfra" });
    await expect(deepinfra).toContainText("Included");
    await expect(deepinfra).toContainText("unknown");
    await expect(deepinfra).toContainText("Input $/M$0.45");
    await expect(deepinfra).toContainText("Output $/M$2.25");
    await expect(deepinfra).toContainText("Uptime 30m");
    const baseten = page.getByRole("listitem", { name: "BaseTen" });
    await expect(baseten).toContainText("Excluded: fp4");
    await expect(baseten).toContainText("Unhealthy: status -5");
    for (const card of await cards.all()) await expectWithinWidth(card, PHONE.width, "a provider card");
    await expectNoSidewaysScroll(page);
    await screenshot(page, "fit-cards-390");
    await page.getByRole("list", { name: "Providers" }).screenshot({ path: `${SCREENSHOT_DIR}/fit-cards-390-list.png` });

    // The card's actions work as the table's do.
    await page.getByRole("button", { name: "Exclude Fireworks" }).click();
    await expect(page.getByRole("listitem", { name: "Fireworks" })).toContainText("Excluded by hand");
    await expect(page).toHaveURL(/xp=fireworks/);
    await expect(page.getByTestId("summary")).toHaveText("4 of 11 providers included");
    await page.getByRole("button", { name: "Record known quantization for DeepInfra" }).click();
    const dialog = page.getByRole("dialog", { name: /Known quantization: DeepInfra/ });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole("button", { name: "Include Fireworks" }).click();
    await expect(page.getByTestId("summary")).toHaveText("5 of 11 providers included");
  });

  for (const viewport of [DESKTOP, PHONE]) {
    test(`the model page's sections are anchors a link carries, with a sticky navigation (${viewport.width} px)`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(`${MODEL_PAGE}?xq=int4,fp4,mxfp4,nvfp4#history`);
      const history = page.locator("#history");
      await expect(history).toBeInViewport();
      await expect(page.getByTestId("summary")).toHaveText("5 of 11 providers included");
      expect(new URL(page.url()).hash).toBe("#history");

      const nav = page.getByRole("navigation", { name: "On this page" });
      await expect(nav.getByRole("link")).toHaveText(["Providers", "Routing", "Budget", "History", "Fidelity"]);
      await nav.getByRole("link", { name: "Budget" }).click();
      await expect(page).toHaveURL(/xq=int4,fp4,mxfp4,nvfp4#budget$/);
      await expect(page.locator("#budget")).toBeInViewport();
      // Sticky: the navigation stays on screen, on top of the section it marks.
      await expect(nav).toBeInViewport();
      await expect(nav.getByRole("link", { name: "Budget" })).toHaveAttribute("aria-current", "location");
      const navBox = await nav.boundingBox();
      expect(navBox?.y).toBe(0);
      const budgetTop = await page.locator("#budget").evaluate((e) => e.getBoundingClientRect().top);
      expect(budgetTop).toBeGreaterThanOrEqual(navBox?.height ?? 0);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/fit-section-nav-${viewport.width}.png` });

      await nav.getByRole("link", { name: "Routing" }).click();
      await expect(page.locator("#routing")).toBeInViewport();
      await expect(nav.getByRole("link", { name: "Routing" })).toHaveAttribute("aria-current", "location");
      await expectNoSidewaysScroll(page);
    });
  }

  test("a saved view's short link is absolute with a copy button, and the page it opens names the view, who saved it and when", async ({ page, browser, baseURL }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${MODEL_PAGE}?xq=int4,fp4,mxfp4,nvfp4&cols=quantization,outputPricePerM,uptime1d`);
    await page.getByLabel("View name").fill("Full precision, narrow table");
    await page.getByRole("button", { name: "Save view" }).click();
    await expect(page.getByRole("status").filter({ hasText: "short link" })).toContainText(`${baseURL}/v/`);
    const item = page.getByRole("listitem", { name: "Full precision, narrow table" });
    const link = item.getByLabel("Short link of Full precision, narrow table");
    await expect(link).toHaveValue(new RegExp(`^${baseURL}/v/[a-z0-9]{8}$`));
    await expect(item).toContainText("Saved by anonymous (no sign-in on this server) on 20");
    const url = await link.inputValue();

    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await item.getByRole("button", { name: "Copy short link" }).click();
    await expect(item.getByRole("status")).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await screenshot(page, "fit-saved-view-1280");

    // A teammate on a phone opens the short link: the page says which view it is, and shows it.
    const teammate = await browser.newContext({ viewport: PHONE });
    const other = await teammate.newPage();
    await other.goto(url);
    await expect(other).toHaveURL(/cols=quantization,outputPricePerM,uptime1d/);
    const notice = other.getByRole("note", { name: "Saved view" });
    await expect(notice).toContainText(/^Saved view “Full precision, narrow table”, saved by anonymous \(no sign-in on this server\) on \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/);
    await expect(other.getByTestId("summary")).toHaveText("5 of 11 providers included");
    await expectWithinWidth(notice, PHONE.width, "the saved-view notice");
    await expectNoSidewaysScroll(other);
    await screenshot(other, "fit-saved-view-opened-390");
    // On a wide screen the same link shows the view's three columns.
    await other.setViewportSize(DESKTOP);
    expect(await headers(other)).toEqual(["provider", "verdict", "quantization", "output $/m", "uptime 1d"]);
    await teammate.close();

    page.once("dialog", (d) => d.accept());
    await page.getByRole("button", { name: "Delete Full precision, narrow table" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Deleted the view" })).toBeVisible();
  });

  test("at 390 px a failed poll's message wraps its long URL inside its box", async ({ page, request }) => {
    await replicaControl(request, "fault", { kind: "hang", times: 10, path: "/endpoints" });
    const result = await poll(request);
    expect(result.models[0].ok).toBe(false);
    await page.setViewportSize(PHONE);
    await page.goto(MODEL_PAGE);
    const alert = page.getByRole("alert", { name: "Last poll failed" });
    await expect(alert).toContainText(/No answer from \/models\/moonshotai\/kimi-k2\.5\/endpoints within 2000 ms/);
    expect(await alert.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
    await expectWithinWidth(alert, PHONE.width, "the failure message");
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/fit-poll-failure-390.png` });
    await replicaControl(request, "reset");
    await poll(request);
  });

  test("at 390 px the spend tables show every cost figure", async ({ page, request }) => {
    // The same generation id as budget.spec.ts's import: the server is shared, so whichever runs
    // first stores DeepInfra's one record and the other's import of it is a duplicate.
    const lines = [
      { id: "e2e-gen-1", provider: "DeepInfra", model: "moonshotai/kimi-k2.5", dataset: "B3", usage: { prompt_tokens: 2000, completion_tokens: 8000, cost: 0.0189 } },
      { id: "fit-gen-2", provider: "Venice", model: "moonshotai/kimi-k2.5", dataset: "B4", usage: { prompt_tokens: 1000, completion_tokens: 1000, cost: 0.0045 } },
    ].map((l) => JSON.stringify(l));
    const imported = await request.post("/api/usage?filename=fit.jsonl", { data: lines.join("\n"), headers: { "content-type": "application/x-ndjson" } });
    expect(imported.status()).toBe(200);

    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto("/spend");
      const byProvider = page.getByRole("table", { name: "Actual usage by provider" });
      const deepinfra = byProvider.getByRole("row", { name: /DeepInfra/ });
      await expect(deepinfra.getByRole("cell")).toHaveText(["1", "2k", "8k", "$0.02", "$1.8900", "$0.02$0.45 / $2.25 per M"]);
      const b3 = page.getByRole("table", { name: "Actual usage by dataset" }).getByRole("row", { name: /B3/ });
      // Every figure, the cost columns included, lies on the screen.
      for (const cell of [...(await deepinfra.getByRole("cell").all()), ...(await b3.getByRole("cell").all())]) {
        await expect(cell).toBeVisible();
        await expectWithinWidth(cell, viewport.width, `a usage figure at ${viewport.width} px`);
      }
      await expectNoSidewaysScroll(page);
      await screenshot(page, `fit-spend-${viewport.width}`);
      await page.getByRole("region", { name: "Actual usage" }).screenshot({ path: `${SCREENSHOT_DIR}/fit-spend-usage-${viewport.width}.png` });
    }
  });

  test("with sign-in on, a saved view records the signed-in account as its author", async ({ browser }) => {
    const server = await startSecuredServer();
    try {
      const context = await browser.newContext({ baseURL: server.url, viewport: DESKTOP, httpCredentials: { username: BASIC_USER, password: BASIC_PASSWORD } });
      const page = await context.newPage();
      await page.goto(MODEL_PAGE);
      await page.getByRole("button", { name: "Poll now" }).click();
      await expect(page.getByRole("table", { name: "Providers" }).getByRole("row")).toHaveCount(12);
      await page.getByLabel("View name").fill("Team view");
      await page.getByRole("button", { name: "Save view" }).click();
      const item = page.getByRole("listitem", { name: "Team view" });
      await expect(item).toContainText(`Saved by ${BASIC_USER} on 20`);
      await item.getByRole("link", { name: "Team view", exact: true }).click();
      await expect(page.getByRole("note", { name: "Saved view" })).toContainText(`Saved view “Team view”, saved by ${BASIC_USER} on `);
      await context.close();
    } finally {
      await server.stop();
    }
  });
});

// The same pages once a team has used them (issue 18, items 11 and 12): a team note, a finished
// probe, imported usage and the account's keys, on a server of their own (tests/e2e/data-server.ts).
test.describe("a page with data in it that fits", () => {
  test.describe.configure({ mode: "serial", timeout: 180_000 });
  let data: DataServer;
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(300_000); // a server of its own, a poll cycle and a probe run, on a shared machine
    data = await startDataServer(browser);
  });
  test.afterAll(async () => data?.stop());

  test("at 390 px the cards show the probe's verdict, the probe's results are a card per endpoint with the verdict first, and the section menu is whole", async () => {
    const context = await data.context(PHONE);
    const page = await context.newPage();
    await page.goto(MODEL_PAGE);
    await expect(page.getByTestId("summary")).toHaveText(/providers included/);

    // The section menu: every link on the screen, none cut.
    const nav = page.getByRole("navigation", { name: "On this page" });
    await expect(nav.getByRole("link")).toHaveText(["Providers", "Routing", "Budget", "History", "Fidelity"]);
    for (const link of await nav.getByRole("link").all()) await expectWithinWidth(link, PHONE.width, `section link ${await link.textContent()}`);

    // Each probed provider's card carries the probe's verdict.
    const fireworks = page.getByRole("listitem", { name: "Fireworks" });
    await expect(fireworks.getByText("Probe:")).toBeVisible();
    await expect(fireworks.getByText("differs by more than Δ", { exact: true })).toBeVisible();
    await expect(page.getByRole("listitem", { name: "Chutes" }).getByText("equivalent within Δ", { exact: true })).toBeVisible();
    await expect(page.getByRole("listitem", { name: "Moonshot AI" }).getByText("reference", { exact: true })).toBeVisible();
    await expect(page.getByRole("listitem", { name: "DeepInfra" }).getByText("Probe:")).toHaveCount(0); // not probed
    await fireworks.scrollIntoViewIfNeeded();
    await windowShot(page, "fit-data-cards-390");

    // The probe's results: nothing scrolls sideways, and each endpoint's verdict is on the screen
    // right under its name.
    await page.locator("#fidelity").scrollIntoViewIfNeeded();
    const run = page.getByRole("region", { name: /^Probe \d+$/ });
    await expect(run.getByTestId("probe-status")).toHaveText("done", { timeout: 30_000 });
    const results = run.getByRole("table");
    expect(await results.evaluate((t) => (t.parentElement as HTMLElement).scrollWidth - (t.parentElement as HTMLElement).clientWidth)).toBeLessThanOrEqual(0);
    for (const [tag, verdict] of [["moonshotai/int4", "reference"], ["chutes/int4", "equivalent within Δ"], ["fireworks", "differs by more than Δ"]]) {
      const row = results.getByRole("row").filter({ has: page.getByRole("rowheader", { name: tag, exact: true }) });
      const badge = row.getByRole("cell").first().getByText(verdict, { exact: true }); // the first cell: the verdict
      await expect(badge).toBeVisible();
      await expectWithinWidth(badge, PHONE.width, `${tag}'s verdict`);
      // The verdict comes first: straight under the endpoint's name, above the method and cost.
      const name = await row.getByRole("rowheader").boundingBox();
      const verdictBox = await badge.boundingBox();
      const method = await row.getByRole("cell").nth(1).boundingBox();
      expect(verdictBox!.y).toBeGreaterThan(name!.y);
      expect(verdictBox!.y).toBeLessThan(method!.y);
      for (const cell of await row.getByRole("cell").all()) await expectWithinWidth(cell, PHONE.width, `a cell of ${tag}'s results`);
    }
    await run.getByRole("row").filter({ hasText: "chutes/int4" }).scrollIntoViewIfNeeded();
    await windowShot(page, "fit-data-probe-390");
    await expectNoSidewaysScroll(page);
    await context.close();
  });

  test("at 390 px the spend page does not scroll sideways: keys, key changes, prices and reconciliation are a card per row", async () => {
    const context = await data.context(PHONE);
    const page = await context.newPage();
    await page.goto("/spend");
    await expect(page.getByRole("table", { name: "API keys" }).getByRole("row")).toHaveCount(4);
    await expectNoSidewaysScroll(page);
    for (const name of ["API keys", "Key changes", "Actual prices per provider", "Reconciliation"]) {
      const table = page.getByRole("table", { name });
      // Its column headers are there for a screen reader, and inside the page.
      expect(await table.getByRole("columnheader").count(), name).toBeGreaterThan(3);
      for (const cell of await table.getByRole("cell").all()) {
        await expect(cell).toBeVisible();
        await expectWithinWidth(cell, PHONE.width, `a cell of ${name}`);
      }
      // Each cell says its column.
      await expect(table.locator("td").first()).toHaveAttribute("data-label", /\w/);
    }
    const notebook = page.getByRole("table", { name: "API keys" }).getByRole("row", { name: /Research notebook/ });
    await expect(notebook.getByRole("cell").nth(5)).toHaveText("$20.00"); // its limit
    await expect(notebook.getByRole("button", { name: "Use for pipeline: “Research notebook”" })).toBeVisible();
    await notebook.scrollIntoViewIfNeeded();
    await windowShot(page, "fit-data-spend-keys-390");
    const flagged = page.getByRole("table", { name: "Reconciliation" }).getByRole("row").filter({ hasText: /differs by \$/ });
    await expect(flagged).toContainText("$1.00");
    await flagged.scrollIntoViewIfNeeded();
    await windowShot(page, "fit-data-spend-reconciliation-390");
    await screenshot(page, "fit-data-spend-390");
    await context.close();
  });

  test("at 1280 px with a team note (a long name, a long reason) and the probe's reasons, the default columns still fit", async () => {
    const context = await data.context(DESKTOP);
    const page = await context.newPage();
    const note = await page.request.put(`/api/models/moonshotai/kimi-k2.5/known-quantization`, {
      data: { tag: "deepinfra", quantization: "fp8", note: "Their support answered in ticket 4411 that the whole fleet serves fp8 weights since the October migration; checked again by a probe.", recordedBy: "Maria-Fernanda Oyelaran-Castellanos" },
    });
    expect(note.status()).toBe(200);
    await page.goto(MODEL_PAGE);
    const table = page.getByRole("table", { name: "Providers" });
    await expect(table.getByRole("row")).toHaveCount(12);
    expect(await headers(page)).toEqual(["provider", "verdict", "quantization", "input $/m", "output $/m", "status", "uptime 30m", "uptime 1d", "latency p50", "throughput p50"]);
    await expect(table.getByRole("row", { name: /^DeepInfra/ })).toContainText("Maria-Fernanda Oyelaran-Castellanos");
    await expect(table.getByRole("row", { name: /^Fireworks/ })).toContainText("confirmed by the provider's docs");
    expect(await hiddenWidth(page)).toBeLessThanOrEqual(0);
    await expectNoSidewaysScroll(page);
    await expect(page.getByText("The table is wider than the screen")).toHaveCount(0);
    await table.getByRole("row", { name: /^DeepInfra/ }).scrollIntoViewIfNeeded();
    await windowShot(page, "fit-data-table-1280");
    expect((await page.request.delete(`/api/models/moonshotai/kimi-k2.5/known-quantization?tag=deepinfra`)).status()).toBe(200);
    await context.close();
  });
});
