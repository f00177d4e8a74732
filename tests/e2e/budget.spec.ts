import { expect, test, type Browser, type Page } from "@playwright/test";
import { poll, replicaControl, screenshot, scrollToBudget } from "./helpers";

/** Nothing on the page is wider than a phone's screen. */
async function expectNoSidewaysScroll(page: Page) {
  // After a viewport change the charts resize on their ResizeObserver's next callback, not at
  // once: the page is judged once its layout has settled.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 5_000 })
    .toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
}

// The data budget: the calculator on the model page (with the 4-bit providers and Fireworks
// excluded, as the seed's team decided), the spend page fed by /key, and the usage import.

const KIMI_FULL_PRECISION = "/models/moonshotai/kimi-k2.5?xq=int4,fp4,mxfp4,nvfp4&xp=fireworks&upmin=95";

/** Saves the stored budget on the spend page, keeping its start. */
async function saveStoredBudget(page: Page, amount: string) {
  await page.goto("/spend");
  await page.getByRole("form", { name: "Budget", exact: true }).getByLabel("Budget (USD)").fill(amount);
  await page.getByRole("button", { name: "Save budget", exact: true }).click();
  await expect(page.getByRole("form", { name: "Budget", exact: true }).getByRole("status")).toContainText(`Saved: $${amount}.00`);
}

/** Saves the seed's $100 as the stored budget, in a page of its own (for afterAll). */
async function restoreSeedBudget(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL });
  await saveStoredBudget(await context.newPage(), "100");
  await context.close();
}

async function expectCalculatorAt100(page: Page) {
  const summary = page.getByRole("status", { name: "Budget summary" });
  await expect(summary).toContainText("Cheapest included");
  await expect(summary).toContainText("$139.50");
  await expect(summary).toContainText("DeepInfra");
  await expect(summary).toContainText("Does not cover the plan: $39.50 short at DeepInfra");
  await expect(summary).toContainText("covers B3–B6 fully and 30% of B7");
  await expect(summary).toContainText("$139.50 – $232.50");
  const table = page.getByRole("table", { name: "Cost per provider" });
  await expect(table.getByRole("row")).toHaveCount(5); // header + DeepInfra, Together, Novita, Venice
  await expect(table.getByRole("row").nth(1)).toContainText("DeepInfra");
  await expect(table.getByRole("row").nth(1)).toContainText("cheapest");
  await expect(table.getByRole("row", { name: /DeepInfra/ })).toContainText("$139.50");
  await expect(table.getByRole("row", { name: /Venice/ })).toContainText("$232.50");
  await expect(table.getByRole("row", { name: /Venice/ })).toContainText("$132.50 short");
}

async function expectCalculatorAt250(page: Page) {
  const summary = page.getByRole("status", { name: "Budget summary" });
  await expect(summary).toContainText("Covers the plan at DeepInfra, $110.50 left over");
  await expect(summary).toContainText("Worst case, if OpenRouter sends the traffic to Venice: $232.50, $17.50 left");
  const table = page.getByRole("table", { name: "Cost per provider" });
  await expect(table.getByRole("row", { name: /Venice/ })).toContainText("Fits, $17.50 left");
  await expect(page.getByLabel("Budget (USD)")).toHaveValue("250");
}

test.describe("data budget calculator", () => {
  test.beforeEach(async ({ request }) => {
    await replicaControl(request, "reset");
    await poll(request);
  });

  test("prices the plan at the included providers and follows the budget; a shared link reproduces it", async ({ page, browser }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(KIMI_FULL_PRECISION);
    await scrollToBudget(page);
    await expectCalculatorAt100(page);
    await screenshot(page, "budget-calculator-100");

    await page.getByLabel("Budget (USD)").fill("250");
    await expectCalculatorAt250(page);
    await expect(page).toHaveURL(/budget=250/);
    await screenshot(page, "budget-calculator-250");

    // "Copy link" carries the rules and the plan alike.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy link" }).click();
    const shared = await page.evaluate(() => navigator.clipboard.readText());
    expect(shared).toContain("budget=250");
    expect(shared).toContain("xp=fireworks");
    const context = await browser.newContext();
    const other = await context.newPage();
    await other.goto(shared);
    await scrollToBudget(other);
    await expectCalculatorAt250(other);
    await context.close();
  });

  test("workload rows are edited, added and removed; bad token counts get a message, never NaN", async ({ page }) => {
    await page.goto(KIMI_FULL_PRECISION);
    await scrollToBudget(page);
    const workload = page.getByRole("table", { name: "Workload" });
    await expect(workload.getByRole("row")).toHaveCount(8); // header, B3–B8, total

    const b3out = page.getByLabel("Output tokens, B3");
    await b3out.fill("-5");
    await expect(page.getByText("A token count cannot be negative")).toBeVisible();
    await b3out.fill("lots");
    await expect(page.getByText(/"lots" is not a token count/)).toBeVisible();
    await expect(page.getByText("Costs use the last valid plan")).toBeVisible();
    await expect(page.locator("body")).not.toContainText("NaN");
    await b3out.fill("");
    await expect(page.getByText("Enter a token count")).toBeVisible();

    // B3 to 20M output: DeepInfra becomes 10M × 0.45 + 70M × 2.25 = $162.00
    await b3out.fill("20M");
    await expect(page.getByRole("status", { name: "Budget summary" })).toContainText("$162.00");
    await expect(page).toHaveURL(/ds=B3:1666667:20M/);

    await page.getByRole("button", { name: "Add dataset" }).click();
    await expect(page.getByLabel("Dataset name, B9")).toHaveValue("B9");
    await page.getByLabel("Output tokens, B9").fill("1.5k");
    await page.getByRole("button", { name: "Remove B3" }).click();
    await expect(workload.getByRole("row")).toHaveCount(8);
    await expect(page).toHaveURL(/ds=B4:.*B9:0:1\.5k/);

    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await screenshot(page, "budget-calculator-mobile");
  });

  test("the calculator follows rule changes made on the comparison page at once", async ({ page }) => {
    await page.goto("/models/moonshotai/kimi-k2.5?budget=250");
    await scrollToBudget(page);
    const summary = page.getByRole("status", { name: "Budget summary" });
    // Every provider but the degraded BaseTen included: Chutes (int4) at $0.40/$2.20 is cheapest, $136.00.
    await expect(summary).toContainText("Range across 10 included");
    await expect(summary).toContainText("$136.00");
    // Each click waits for the last one's effect: the table's rows change height as verdicts change,
    // and a click aimed while they move can land on the row below.
    await page.getByRole("button", { name: "Exclude 4-bit" }).click();
    await expect(summary).toContainText("Range across 5 included");
    await page.getByRole("button", { name: "Exclude Fireworks" }).click();
    await expect(summary).toContainText("Range across 4 included");
    await page.getByLabel("Minimum uptime (%)").fill("95");
    await expect(page).toHaveURL(/upmin=95/);
    await expect(summary).toContainText("Range across 4 included");
    await expectCalculatorAt250(page);
    await expect(page).toHaveURL(/budget=250/);
  });

  test("a malformed link value falls back to the default and says so", async ({ page }) => {
    await page.goto(`${KIMI_FULL_PRECISION}&budget=lots&ds=B3:nope`);
    await scrollToBudget(page);
    await expect(page.getByRole("note").filter({ hasText: "could not be read" })).toContainText("budget and workload (ds)");
    await expectCalculatorAt100(page);
  });

  test("the calculator starts from the stored budget; a budget typed there is a what-if kept in the link", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await saveStoredBudget(page, "250"); // put back by afterAll, also when this test fails
    await page.goto(KIMI_FULL_PRECISION);
    await scrollToBudget(page);
    await expectCalculatorAt250(page);
    const calculator = page.getByRole("region", { name: "Data budget" });
    await expect(calculator).toContainText("The stored budget, set on the Spend page");
    await expect(calculator.getByRole("note", { name: "What-if budget" })).toHaveCount(0);

    await page.getByLabel("Budget (USD)").fill("100");
    await expect(page).toHaveURL(/budget=100/);
    const whatIf = calculator.getByRole("note", { name: "What-if budget" });
    await expect(whatIf).toContainText("What-if: $100.00; stored budget $250.00");
    await expectCalculatorAt100(page);
    await screenshot(page, "budget-what-if");

    // The link carries the what-if; going back to the stored budget drops it from the link.
    await page.goto(`${KIMI_FULL_PRECISION}&budget=100`);
    await scrollToBudget(page);
    await expect(whatIf).toContainText("What-if: $100.00; stored budget $250.00");
    await whatIf.getByRole("button", { name: "Use the stored budget" }).click();
    await expect(page).not.toHaveURL(/budget=/);
    await expectCalculatorAt250(page);
    await expect(whatIf).toHaveCount(0);

    // Typing the stored amount is no what-if.
    await page.getByLabel("Budget (USD)").fill("300");
    await expect(page).toHaveURL(/budget=300/);
    await page.getByLabel("Budget (USD)").fill("250");
    await expect(page).not.toHaveURL(/budget=/);
    await expect(whatIf).toHaveCount(0);
  });

  // The stored budget is shared by every test: put the seed's $100 back, whatever happened above.
  test.afterAll(async ({ browser, baseURL }) => restoreSeedBudget(browser, baseURL));
});

test.describe("spend tracking and actual usage", () => {
  test.afterAll(async ({ browser, baseURL }) => restoreSeedBudget(browser, baseURL));

  test("the spend page shows the stored series, the burn rate and when the budget runs out", async ({ page, request }) => {
    await poll(request);
    const snapshotTakenBy = Date.now(); // the poll's spend snapshot is stored before its answer
    await page.goto("/spend");
    // Start the budget now, to the second, after the snapshot just taken (spend counts from it):
    // the start field holds whole seconds, so wait for the clock to enter the next second.
    await expect.poll(() => Math.floor(Date.now() / 1000), { intervals: [20], timeout: 2_000 }).toBeGreaterThan(Math.floor(snapshotTakenBy / 1000));
    const start = new Date().toISOString().slice(0, 19);
    await page.getByLabel("Budget (USD)").fill("100");
    await page.getByLabel("Start (UTC)").fill(start);
    await page.getByRole("button", { name: "Save budget", exact: true }).click();
    await expect(page.getByRole("form", { name: "Budget", exact: true }).getByRole("status")).toContainText("Saved: $100.00");

    for (let i = 0; i < 3; i++) await poll(request); // the replica's key spends $0.75 per call
    await page.reload();
    const figures = page.getByRole("definition").filter({ hasText: "$" });
    const summary = page.getByLabel("Spend summary");
    await expect(summary).toContainText("Spent since start$2.25");
    await expect(summary).toContainText("Remaining$97.75");
    // Four snapshots seconds apart are no basis for a rate: the page says what it waits for.
    await expect(summary).toContainText(/Burn rate—no rate until the snapshots span 30 min \(\d min so far\)/);
    await expect(summary).toContainText("Runs out—no burn rate yet");
    await expect(figures.first()).toBeVisible();
    await expect(page.getByRole("note", { name: "Demo data" })).toContainText("Demo data"); // the replica's key, not OpenRouter's
    const chart = page.getByRole("figure", { name: "Spend over time" });
    // First drawn without recharts (not part of the page's first load), then the interactive chart
    // once a pointer comes over it.
    await expect(chart.getByRole("img", { name: /^Spend over time \(preview/ })).toBeVisible();
    await expect(chart).toContainText("Budget $100");
    await expect(chart.locator(".recharts-line-curve")).toHaveCount(0);
    await chart.hover();
    await expect(chart.locator(".recharts-line-curve").first()).toBeVisible();
    await expect(chart).toContainText("Budget $100");
    await expect(page.locator("body")).not.toContainText("e2e-test-key-not-secret");
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, "spend");
  });

  test("the budget form says its real bounds and keeps what was typed; a $0 budget draws a clean chart", async ({ page, request }) => {
    await poll(request);
    await poll(request);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/spend");
    const amount = page.getByRole("form", { name: "Budget", exact: true }).getByLabel("Budget (USD)");
    const message = page.getByRole("form", { name: "Budget", exact: true }).getByRole("status");
    await expect(page.getByRole("form", { name: "Budget", exact: true })).toContainText("An amount from $0 to $1,000,000,000");

    for (const [typed, refusal] of [
      ["1000000000.01", "Budget: Over the limit: a budget goes from $0 to $1,000,000,000"],
      ["-5", "Budget: A budget cannot be negative: use an amount from $0 to $1,000,000,000"],
      ["12.345", "Budget: Use whole cents (at most 2 decimals)"],
    ]) {
      await amount.fill(typed);
      await page.getByRole("button", { name: "Save budget", exact: true }).click();
      await expect(message).toContainText(refusal);
      await expect(amount).toHaveValue(typed); // kept, to be corrected
      await expect(amount).toHaveAttribute("aria-invalid", "true");
    }
    await screenshot(page, "spend-budget-refused");

    await amount.fill("$1,000,000,000");
    await page.getByRole("button", { name: "Save budget", exact: true }).click();
    await expect(message).toContainText("Saved: $1000000000.00");

    await amount.fill("0");
    await page.getByRole("button", { name: "Save budget", exact: true }).click();
    await expect(message).toContainText("Saved: $0.00");
    await page.reload();
    const chart = page.getByRole("figure", { name: "Spend over time" });
    await expect(chart).toContainText("Budget $0.00");
    await chart.hover(); // the interactive chart replaces the preview
    await expect(chart.locator(".recharts-line-curve").first()).toBeVisible();
    await expect(chart).toContainText("Budget $0.00");
    // (recharts draws tick labels in a layer of their own, apart from the axis line)
    const ticks = await chart.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value").allTextContents();
    expect(ticks.length).toBeGreaterThan(2);
    expect(new Set(ticks).size).toBe(ticks.length); // no "$0 $0 $0"
    const times = await chart.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value").allTextContents();
    expect(new Set(times).size).toBe(times.length); // snapshots seconds apart: no "20:33 20:33"
    // The budget's label sits above its line, clear of the time axis and its labels.
    const label = await chart.locator("text.recharts-label").filter({ hasText: "Budget $0.00" }).boundingBox();
    const axis = await chart.locator(".recharts-xAxis .recharts-cartesian-axis-line").boundingBox();
    if (!label || !axis) throw new Error("chart not laid out");
    expect(label.y + label.height).toBeLessThanOrEqual(axis.y);
    await screenshot(page, "spend-zero-budget");
  });

  test("usage JSONL imports once: by API and by upload, with bad lines reported by number", async ({ page, request }) => {
    const lines = [
      { id: "e2e-gen-1", provider: "DeepInfra", model: "moonshotai/kimi-k2.5", dataset: "B3", usage: { prompt_tokens: 2000, completion_tokens: 8000, cost: 0.0189 } },
      { provider: "Venice", input_tokens: 1000, output_tokens: 1000, cost: 0.0045, dataset: "B4" },
    ].map((l) => JSON.stringify(l));
    const body = [...lines, "{broken"].join("\n");

    const first = await request.post("/api/usage?filename=run.jsonl", { data: body, headers: { "content-type": "application/x-ndjson" } });
    expect(first.status()).toBe(200);
    const answer = await first.json();
    expect(answer).toMatchObject({ lines: 3, rejected: 1, errors: [{ line: 3 }] });

    const tooBig = await request.post("/api/usage", { data: "x".repeat(11 * 1024 * 1024), headers: { "content-type": "text/plain" } });
    expect(tooBig.status()).toBe(413);
    const empty = await request.post("/api/usage", { data: " ", headers: { "content-type": "text/plain" } });
    expect(empty.status()).toBe(400);
    expect((await empty.json()).error.message).toContain("body");

    await page.goto("/spend");
    await page.getByLabel("Usage file (JSONL)").setInputFiles({ name: "again.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(body) });
    await page.getByRole("button", { name: "Import" }).click();
    const result = page.getByRole("status").filter({ hasText: "again.jsonl" });
    await expect(result).toContainText("3 lines, 0 imported, 2 already imported, 1 rejected");
    await expect(result).toContainText("Line 3: not valid JSON");
    const byProvider = page.getByRole("table", { name: "Actual usage by provider" });
    await expect(byProvider.getByRole("row", { name: /DeepInfra/ })).toContainText("$0.02");
    await expect(byProvider.getByRole("row", { name: /DeepInfra/ })).toContainText("$0.45 / $2.25 per M");
    await expect(page.getByRole("table", { name: "Actual usage by dataset" }).getByRole("row", { name: /B3/ })).toContainText("8k / 10M");
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await screenshot(page, "spend-mobile");
  });
});
