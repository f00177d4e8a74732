import { expect, test, type Page } from "@playwright/test";
import Decimal from "decimal.js";
import { poll, replicaControl, screenshot, scrollToBudget, scrollToHistory } from "./helpers";

// An open model page follows new polls without a reload: table, routing export, calculator,
// charts and change log all move to the new snapshot together, whether the page asked for the
// poll ("Poll now") or not (POST /api/poll, as a cron or the scheduler polls).

const KIMI = "moonshotai/kimi-k2.5";
const perToken = (perM: string) => new Decimal(perM).div(1_000_000).toFixed(); // as OpenRouter sends it, exact
const pricing = (inputPerM: string, outputPerM: string) => ({ prompt: perToken(inputPerM), completion: perToken(outputPerM), request: "0", image: "0", discount: 0 });

/** A poll the page did not ask for is noticed by its watch (every 10 s): wait up to three rounds. */
const NOTICED = { timeout: 35_000 };

type Wire = { endpoints: Array<{ tag: string; points: Array<[number, string | null, string | null, string | null, number]> }> };
const lambdaLast = (wire: Wire) => wire.endpoints.find((e) => e.tag === "lambda/fp8")?.points.at(-1);

/** The input price chart's data as the page fetches it, once Lambda's newest price is `price`. */
function inputPricesWithLambdaAt(page: Page, price: string) {
  return page.waitForResponse(
    async (r) => r.url().includes("/series?metric=inputPrice&range=24h") && lambdaLast((await r.json()) as Wire)?.[1] === price,
    NOTICED,
  );
}

/** Hovers the newest point of a chart; returns its tooltip. */
async function hoverLastBucket(page: Page, title: string) {
  const chart = page.getByRole("region", { name: "History" }).getByRole("figure", { name: title });
  await chart.scrollIntoViewIfNeeded();
  await chart.locator(".recharts-line-dot").last().hover({ force: true });
  return chart.getByRole("tooltip");
}

test.describe("the model page follows new polls", () => {
  test.beforeEach(async ({ request }) => replicaControl(request, "reset"));

  test("after Poll now and after a poll it did not ask for, every part shows the new snapshot without a reload", async ({ page, request }) => {
    test.setTimeout(100_000); // two polls, a watch round and chart hovers: 31 s in a CI run
    await poll(request);
    await page.goto(`/models/${KIMI}`);
    // Set on this document: a reload would lose it.
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    await scrollToBudget(page); // the calculator, the charts and the change log load when they come into view
    await scrollToHistory(page); // the charts and change log load when their section comes into view
    const header = page.getByTestId("poll-freshness");
    await expect(header).toContainText(/polled (just now|\d+ min ago)/);
    await expect(header).toContainText("scheduler off (POLL_INTERVAL_SECONDS=0)");

    const table = page.getByRole("table", { name: "Providers" });
    const routing = page.getByLabel("Routing preferences JSON");
    const budget = page.getByRole("status", { name: "Budget summary" });
    const history = page.getByRole("region", { name: "History" });
    const legend = history.getByRole("group", { name: "Endpoints shown" });
    const log = page.getByRole("region", { name: "Change log" }).getByRole("list", { name: "Changes" }).getByRole("listitem");
    await expect(table.getByRole("row", { name: /Lambda/ })).toHaveCount(0);
    await expect(routing).not.toContainText("lambda/fp8");
    await expect(legend.getByRole("button", { name: /Lambda/ })).toHaveCount(0);

    // 1. A new, cheaper endpoint appears at OpenRouter; "Poll now" on the page.
    await replicaControl(request, "patch", {
      model: KIMI,
      tag: "lambda/fp8",
      set: { provider_name: "Lambda", name: "Lambda | moonshotai/kimi-k2.5-20260127", quantization: "fp8", pricing: pricing("0.38", "1.90") },
    });
    const inputPricesFetched = inputPricesWithLambdaAt(page, "0.38");
    await page.getByRole("button", { name: "Poll now" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Polled" })).toContainText("Polled 1 model", { timeout: 30_000 });
    await expect(table.getByRole("row", { name: /Lambda/ })).toContainText("$0.38");
    await expect(routing).toContainText('"lambda/fp8"');
    await expect(budget).toContainText("Lambda"); // 10M input × $0.38 + 60M output × $1.90
    await expect(budget).toContainText("$117.80");
    await expect(log.filter({ hasText: "Provider added" }).filter({ hasText: "Lambda" })).toHaveCount(1);
    await expect(legend.getByRole("button", { name: /Lambda/ })).toHaveAttribute("aria-pressed", "true");
    await inputPricesFetched;
    const price = await hoverLastBucket(page, "Input price ($ per million tokens)");
    await expect(price).toContainText(/Lambda\s*\$0\.38/);
    await screenshot(page, "live-after-poll-now");

    // 2. OpenRouter changes again and a cron polls (POST /api/poll): the page was not asked.
    await replicaControl(request, "patch", { model: KIMI, tag: "lambda/fp8", set: { pricing: pricing("0.30", "1.90") } });
    await replicaControl(request, "patch", { model: KIMI, tag: "venice", remove: true });
    // The input price chart's data, as the page fetches it once it has noticed the new snapshot.
    const seriesRefetched = inputPricesWithLambdaAt(page, "0.30");
    await poll(request);
    await expect(table.getByRole("row", { name: /Lambda/ })).toContainText("$0.30", NOTICED);
    await expect(table.getByRole("row", { name: /Venice/ })).toHaveCount(0);
    await expect(routing).not.toContainText('"venice"');
    await expect(budget).toContainText("$117.00");
    await expect(log.filter({ hasText: "Price" }).filter({ hasText: "Lambda" })).toContainText("0.38 / 1.90 → 0.30 / 1.90");
    await expect(log.filter({ hasText: "Provider removed" }).filter({ hasText: "Venice" })).toHaveCount(1);
    // The charts refetched their data for the new snapshot, and draw it.
    // Its newest point is the price in effect at the end of the bucket: $0.30.
    const [, value, min, max] = lambdaLast((await (await seriesRefetched).json()) as Wire) ?? [];
    expect(value).toBe("0.30");
    const tooltip = await hoverLastBucket(page, "Input price ($ per million tokens)");
    await expect(tooltip).toContainText("price in effect at the end of the bucket; min–max within it");
    const lambdaRow = tooltip.getByRole("row").filter({ hasText: "Lambda" });
    await expect(lambdaRow).toContainText("$0.30");
    // Both polls usually share the newest 5-minute bucket; when a bucket boundary fell between them, it holds one price.
    if (min !== max) await expect(lambdaRow).toContainText(`min–max $${min}–$${max}`);
    else await expect(lambdaRow).not.toContainText("min–max");
    await expect(history.getByRole("figure", { name: "Input price ($ per million tokens)" })).toContainText(
      "Each point: the price in effect at the end of its bucket (its last poll).",
    );
    await expect(header).toContainText(/polled (just now|\d+ min ago)/);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await screenshot(page, "live-after-cron-poll");
  });
});
