import { expect, test } from "@playwright/test";
import { poll, replicaControl, screenshot, scrollToHistory, windowShot } from "./helpers";

const KIMI = "moonshotai/kimi-k2.5";

test.describe("history: charts and change log", () => {
  test.beforeEach(async ({ request }) => replicaControl(request, "reset"));

  test("the uptime chart draws a line per provider, toggles from the legend and switches range", async ({ page, request }) => {
    for (let i = 0; i < 4; i++) await poll(request);
    // deg=false: every endpoint included, so the chart starts with all 11 lines shown (by default
    // the degraded BaseTen is excluded, and the chart shows the included ones).
    await page.goto(`/models/${KIMI}?deg=false`);
    await scrollToHistory(page);

    const history = page.getByRole("region", { name: "History" });
    const uptime = history.getByRole("figure", { name: "Uptime, last 30 minutes (%)" });
    await expect(uptime).toBeVisible({ timeout: 30_000 }); // its code and series are fetched on scrolling
    const legend = history.getByRole("group", { name: "Endpoints shown" });
    await expect(legend.getByRole("button")).toHaveCount(11);
    await expect(legend.getByRole("button", { pressed: true })).toHaveCount(11);
    // A line per provider (with this few polls, each is drawn as points).
    await expect(uptime.locator(".recharts-line")).toHaveCount(11);
    await expect(uptime.locator(".recharts-line-dots")).toHaveCount(11);
    await expect(uptime).toContainText("11 of 11 endpoints · 5 min buckets");
    // The threshold is drawn as a line.
    await expect(uptime.locator(".recharts-reference-line")).toHaveCount(1);
    await expect(uptime).toContainText("threshold 95%");
    await expect(history.getByRole("figure", { name: "Input price ($ per million tokens)" })).toBeVisible();
    await expect(history.getByRole("figure", { name: "Latency p50 (ms)" })).toBeVisible();

    // Hover shows the time, the value and the polls behind the point.
    await uptime.scrollIntoViewIfNeeded();
    const dot = uptime.locator(".recharts-line-dot").last();
    const box = await dot.boundingBox();
    if (!box) throw new Error("chart not laid out");
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const tooltip = uptime.getByRole("tooltip");
    await expect(tooltip).toContainText("UTC (5 min)");
    await expect(tooltip).toContainText(/DeepInfra\s*\d+\.\d%\s*(min–max \d+\.\d%–\d+\.\d%\s*)?\d+ polls?/);
    await screenshot(page, "history-24h");

    await legend.getByRole("button", { name: /BaseTen/ }).click();
    await expect(legend.getByRole("button", { name: /BaseTen/ })).toHaveAttribute("aria-pressed", "false");
    await expect(uptime.locator(".recharts-line")).toHaveCount(10);
    await expect(uptime).toContainText("10 of 11 endpoints");

    const ranges = history.getByRole("group", { name: "Range" });
    await expect(ranges.getByRole("button", { name: "24 h" })).toHaveAttribute("aria-pressed", "true");
    const seriesRequest = page.waitForRequest((r) => r.url().includes("/series?metric=uptime30m&range=7d"));
    await ranges.getByRole("button", { name: "7 d" }).click();
    await seriesRequest;
    await expect(ranges.getByRole("button", { name: "7 d" })).toHaveAttribute("aria-pressed", "true");
    await expect(ranges.getByRole("button", { name: "24 h" })).toHaveAttribute("aria-pressed", "false");
    await expect(uptime).toContainText("1 h buckets");
    await expect(uptime.locator(".recharts-line")).toHaveCount(10); // the toggle survives a range switch
    await ranges.getByRole("button", { name: "90 d" }).click();
    await expect(uptime).toContainText("1 day buckets");
    await expect(page).toHaveURL(/hr=90d/); // the range is part of the link
    await screenshot(page, "history-90d");
  });

  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    test(`the uptime chart's axis zooms to the lines drawn, with the threshold and its label in view and off the lines (${viewport.width} px)`, async ({ page, request }) => {
      for (let i = 0; i < 3; i++) await poll(request);
      await page.setViewportSize(viewport);
      await page.goto(`/models/${KIMI}`); // BaseTen (29.8%, degraded) is excluded, so not drawn
      await scrollToHistory(page);
      const uptime = page.getByRole("figure", { name: "Uptime, last 30 minutes (%)" });
      await expect(uptime.locator(".recharts-line")).toHaveCount(10, { timeout: 30_000 }); // its code and series are fetched on scrolling
      await uptime.scrollIntoViewIfNeeded();
      const ticks = async () =>
        (await uptime.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value").allTextContents()).map((t) => Number.parseFloat(t));
      // The drawn uptimes are 97.4–99.8%: the axis runs from just under the threshold (95%) to 100%, not from 0.
      await expect.poll(async () => (await ticks()).length).toBeGreaterThan(2);
      expect(Math.min(...(await ticks()))).toBeGreaterThanOrEqual(90);
      expect(Math.min(...(await ticks()))).toBeLessThan(95);
      expect(Math.max(...(await ticks()))).toBe(100);

      // The threshold line lies inside the plot, its label beside it in the margin right of the plot.
      // (A horizontal SVG line is 0 px high, which Playwright counts as hidden: its box is read directly.)
      const line = uptime.locator(".recharts-reference-line-line");
      await expect(line).toHaveCount(1);
      const lineBox = await line.evaluate((l) => {
        const r = l.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width };
      });
      const plotBox = await uptime.locator(".recharts-cartesian-grid").evaluate((g) => {
        const r = g.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, height: r.height };
      });
      expect(lineBox.width).toBeGreaterThan(100);
      expect(lineBox.y).toBeGreaterThan(plotBox.top);
      expect(lineBox.y).toBeLessThan(plotBox.bottom);
      const label = uptime.getByTestId("threshold-label");
      await expect(label).toHaveText("threshold 95%");
      await expect(label).toBeInViewport();
      const labelBox = (await label.boundingBox())!;
      const figureBox = (await uptime.boundingBox())!;
      expect(labelBox.x).toBeGreaterThanOrEqual(lineBox.x + lineBox.width); // right of the plot: never over a line
      expect(labelBox.x + labelBox.width).toBeLessThanOrEqual(figureBox.x + figureBox.width);
      expect(labelBox.y).toBeLessThan(lineBox.y + 2);
      expect(labelBox.y + labelBox.height).toBeGreaterThan(lineBox.y - 2); // at the line's height

      // Zoomed: the ten providers' points spread over a good part of the plot's height (on a
      // 0–100% axis they shared its top 3%), and every one of them is above the threshold line.
      const dots = await uptime.locator(".recharts-line-dot").evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
      expect(dots.length).toBeGreaterThanOrEqual(10);
      expect((Math.max(...dots) - Math.min(...dots)) / plotBox.height).toBeGreaterThan(0.25);
      for (const top of dots) expect(top).toBeLessThan(lineBox.y);
      await windowShot(page, `history-uptime-zoomed-${viewport.width}`);

      // BaseTen drawn too (from the legend): the axis goes down to take in its 29.8%.
      await page.getByRole("group", { name: "Endpoints shown" }).getByRole("button", { name: /BaseTen/ }).click();
      await expect(uptime.locator(".recharts-line")).toHaveCount(11);
      await expect.poll(async () => Math.min(...(await ticks()))).toBeLessThanOrEqual(25);
      await expect(label).toHaveText("threshold 95%");
      await windowShot(page, `history-uptime-zoomed-baseten-${viewport.width}`);
    });
  }

  test("with rules set, the uptime chart shows the included providers and the rule's threshold", async ({ page }) => {
    await page.goto(`/models/${KIMI}?xq=int4,fp4,mxfp4,nvfp4&xp=fireworks&upmin=97&hr=7d`);
    await scrollToHistory(page);
    const history = page.getByRole("region", { name: "History" });
    await expect(history.getByRole("group", { name: "Range" }).getByRole("button", { name: "7 d" })).toHaveAttribute("aria-pressed", "true");
    const legend = history.getByRole("group", { name: "Endpoints shown" });
    const pressed = legend.getByRole("button", { pressed: true });
    const included = await page.getByRole("table", { name: "Providers" }).locator('tbody tr[data-included="true"] th').allInnerTexts();
    await expect(pressed).toHaveCount(included.length);
    for (const name of included) await expect(legend.getByRole("button", { name: new RegExp(name.split("\n")[0]) })).toHaveAttribute("aria-pressed", "true");
    await expect(history.getByRole("figure", { name: "Uptime, last 30 minutes (%)" })).toContainText("threshold 97%");
  });

  test("a price change at the replica appears once in the change log, and the filter narrows it", async ({ page, request }) => {
    await poll(request);
    await replicaControl(request, "patch", {
      model: KIMI,
      tag: "deepinfra",
      set: { pricing: { prompt: "0.0000005", completion: "0.00000225", request: "0", image: "0", discount: 0 } },
    });
    await replicaControl(request, "patch", { model: KIMI, tag: "novita", set: { status: -2 } });
    await poll(request);
    await poll(request);

    await page.goto(`/models/${KIMI}`);
    await scrollToHistory(page);
    const log = page.getByRole("region", { name: "Change log" });
    const entries = log.getByRole("list", { name: "Changes" }).getByRole("listitem");
    await expect(entries.filter({ hasText: "DeepInfra" }).filter({ hasText: "0.45 / 2.25 → 0.50 / 2.25" })).toHaveCount(1);
    await expect(entries.filter({ hasText: "Novita" }).filter({ hasText: "0 → -2" })).toHaveCount(1);

    await log.getByRole("combobox", { name: "Kind" }).selectOption("price");
    await expect(entries.filter({ hasText: "Novita" })).toHaveCount(0);
    await expect(entries.filter({ hasText: "DeepInfra" })).toHaveCount(1);
    await log.getByRole("combobox", { name: "Kind" }).selectOption("");
    await log.getByRole("combobox", { name: "Provider" }).selectOption("Novita");
    await expect(entries).toHaveCount(1);
    await expect(entries.first()).toContainText("Status");
    await log.scrollIntoViewIfNeeded();
    await screenshot(page, "history-changes");

    // The filter is in the link: a teammate opening it sees the same log.
    await expect(page).toHaveURL(/[?&]cp=Novita(&|$)/);
    await log.getByRole("combobox", { name: "Kind" }).selectOption("status");
    await expect(page).toHaveURL(/[?&]ck=status(&|$)/);
    const teammate = await page.context().newPage();
    await teammate.goto(page.url());
    await scrollToHistory(teammate);
    const theirLog = teammate.getByRole("region", { name: "Change log" });
    await expect(theirLog.getByRole("combobox", { name: "Kind" })).toHaveValue("status");
    await expect(theirLog.getByRole("combobox", { name: "Provider" })).toHaveValue("Novita");
    await expect(theirLog.getByRole("list", { name: "Changes" }).getByRole("listitem")).toHaveCount(1);
    // Every provider of the model can be chosen, with or without a change (Chutes has none here).
    await expect(theirLog.getByRole("combobox", { name: "Provider" }).getByRole("option", { name: "Chutes" })).toHaveCount(1);
    await teammate.close();

    const api = await request.get(`/api/models/${KIMI}/changes?kind=weather`);
    expect(api.status()).toBe(400);
    expect((await api.json()).error.message).toContain("kind");
    const clamp = await request.get(`/api/models/${KIMI}/series?metric=uptime30m&range=90d&bucket=5m`);
    expect((await clamp.json()).bucketSeconds).toBe(86400);
    // On the wire, only polled buckets: [index from `from`, value, min, max, polls].
    const day = await (await request.get(`/api/models/${KIMI}/series?metric=uptime30m&range=24h`)).json();
    const points: unknown[][] = day.endpoints.flatMap((e: { points: unknown[][] }) => e.points);
    expect(points.length).toBeGreaterThan(0);
    for (const p of points) {
      expect(p).toHaveLength(5);
      expect(p[4]).toBeGreaterThan(0);
      expect(Number.isInteger(p[0]) && (p[0] as number) >= 0 && (p[0] as number) < 288).toBe(true);
    }
    expect((await request.get(`/api/models/nobody/nothing/series?metric=uptime30m`)).status()).toBe(404);
  });
});
