import { gzipSync } from "node:zlib";
import { expect, test, type Page } from "@playwright/test";
import { poll, screenshot } from "./helpers";

// Page weight: every page's first load (each script fetched until the network is quiet, without
// scrolling or pointing at anything) is under 200 KiB of gzipped JavaScript, /spend with its spend
// chart drawn included. Measured here on its own (not with scripts/page-weight.ts, which
// `npm run size` prints the README's figures with).

const LIMIT = 200 * 1024;
const KIMI = "moonshotai/kimi-k2.5";

async function firstLoadGzip(page: Page, path: string): Promise<number> {
  const bodies: Promise<Buffer | null>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") bodies.push(response.body().catch(() => null));
  });
  await page.goto(path, { waitUntil: "networkidle" });
  let total = 0;
  for (const body of await Promise.all(bodies)) if (body) total += gzipSync(body).byteLength;
  return total;
}

test.describe("page weight", () => {
  test.beforeAll(async ({ request }) => {
    await poll(request);
    await poll(request); // two spend snapshots: /spend draws its chart
  });

  for (const path of ["/", `/models/${KIMI}`, "/spend", "/alerts", "/notifications", "/no-such-page"]) {
    test(`${path}: under 200 KiB of gzipped script on a first load`, async ({ browser }) => {
      // A fresh context: nothing cached from another page.
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const bytes = await firstLoadGzip(page, path);
      expect(bytes, `${path}: ${(bytes / 1024).toFixed(1)} KiB`).toBeLessThan(LIMIT);
      expect(bytes).toBeGreaterThan(50 * 1024); // the framework at least: the measure saw the scripts
      if (path === "/spend") {
        // The chart is there, drawn without recharts, which comes when a pointer does.
        const chart = page.getByRole("figure", { name: "Spend over time" });
        await expect(chart.getByRole("img", { name: /^Spend over time \(preview/ })).toBeVisible();
        await expect(chart.locator(".recharts-surface")).toHaveCount(0);
        await screenshot(page, "spend-chart-preview");
        await chart.hover();
        await expect(chart.locator(".recharts-line-curve").first()).toBeVisible();
      }
      await context.close();
    });
  }
});
