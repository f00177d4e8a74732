import { expect, test, type Page } from "@playwright/test";
import { poll, replicaControl, screenshot } from "./helpers";

const MODEL_PAGE = "/models/moonshotai/kimi-k2.5";
const FOUR = ["DeepInfra", "Together", "Novita", "Venice"];

async function includedProviders(page: Page): Promise<string[]> {
  const rows = page.getByRole("table", { name: "Providers" }).locator('tbody tr[data-included="true"] th');
  const names = await rows.allInnerTexts();
  return names.map((n) => n.split("\n")[0].trim()).sort();
}

async function applySeedRules(page: Page) {
  await page.getByRole("button", { name: "Exclude 4-bit" }).click();
  await expect(page.getByRole("button", { name: "Exclude 4-bit" })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("button", { name: "Exclude Fireworks" }).click();
  await page.getByLabel("Minimum uptime (%)").fill("95");
}

test.describe("provider comparison", () => {
  test.beforeAll(async ({ request }) => {
    await replicaControl(request, "reset");
    await poll(request);
  });

  test("the seed scenario: three clicks leave DeepInfra, Together, Novita and Venice, and the link and saved view agree", async ({ page, browser, request }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(MODEL_PAGE);
    // Out of the box only what OpenRouter marks degraded is left out: BaseTen, at status -5.
    await expect(page.getByTestId("summary")).toHaveText("10 of 11 providers included");
    await applySeedRules(page);

    await expect(page.getByTestId("summary")).toHaveText("4 of 11 providers included");
    expect(await includedProviders(page)).toEqual([...FOUR].sort());
    const table = page.getByRole("table", { name: "Providers" });
    await expect(table.getByRole("row", { name: /^BaseTen/ })).toContainText("Excluded: fp4; uptime 29.8% < 95%; degraded (status -5)");
    await expect(table.getByRole("row", { name: /^Fireworks/ })).toContainText("Excluded by hand");
    await expect(table.getByRole("row", { name: /^Chutes/ })).toContainText("Excluded: int4");
    await expect(page.getByLabel("Routing preferences JSON")).toContainText('"allow_fallbacks": false');
    await expect(page).toHaveURL(/xq=int4,fp4,mxfp4,nvfp4/);
    await screenshot(page, "comparison-1280");

    // Copy link puts the view's URL on the clipboard; a teammate opening it sees the same verdicts.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toContain("upmin=95");
    const teammate = await browser.newContext();
    const other = await teammate.newPage();
    await other.goto(link);
    await expect(other.getByTestId("summary")).toHaveText("4 of 11 providers included");
    expect(await includedProviders(other)).toEqual([...FOUR].sort());
    await teammate.close();

    // Save the view; its routing JSON lists exactly the four tags.
    await page.getByLabel("View name").fill("EAGLE-3 full precision");
    await page.getByRole("button", { name: "Save view" }).click();
    const saved = page.getByRole("status").filter({ hasText: "short link" });
    await expect(saved).toContainText("/v/");
    const slug = /\/v\/([a-z0-9]+)/.exec((await saved.textContent()) ?? "")?.[1];
    expect(slug).toBeTruthy();
    const routing = await (await request.get(`/api/views/${slug}/routing`)).json();
    expect(routing.provider.only).toEqual(["deepinfra", "novita", "together", "venice"]);
    expect(routing.provider.allow_fallbacks).toBe(false);
    expect(routing.provider.quantizations).toContain("unknown");
    expect(routing.provider.quantizations).not.toContain("int4");

    // The short link opens the same view.
    await page.goto(`/v/${slug}`);
    await expect(page.getByTestId("summary")).toHaveText("4 of 11 providers included");
    await expect(page.getByRole("list", { name: "Saved views" })).toContainText("EAGLE-3 full precision");

    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "comparison-390");

    // Deleting the view makes its short link a clear 404.
    page.once("dialog", (d) => d.accept());
    await page.getByRole("button", { name: "Delete EAGLE-3 full precision" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Deleted the view" })).toBeVisible();
    const gone = await page.goto(`/v/${slug}`);
    expect(gone?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Saved view not found" })).toBeVisible();
    expect((await request.get(`/api/views/${slug}/routing`)).status()).toBe(404);
  });

  test("a manual include overrides the quantization rule and says so", async ({ page }) => {
    await page.goto(`${MODEL_PAGE}?xq=int4,fp4,mxfp4,nvfp4`);
    const chutes = page.getByRole("table", { name: "Providers" }).getByRole("row", { name: /^Chutes/ });
    await expect(chutes).toContainText("Excluded: int4");
    await chutes.getByRole("button", { name: "Include Chutes" }).click();
    await expect(chutes).toContainText("Included by hand (over int4)");
    await expect(page.getByLabel("Routing preferences JSON")).toContainText('"chutes/int4"');
    await chutes.getByRole("button", { name: "Exclude Chutes" }).click();
    await expect(chutes).toContainText("Excluded: int4");
  });

  test("team knowledge: Fireworks recorded as nvfp4 is excluded by the 4-bit rule", async ({ page }) => {
    await page.goto(MODEL_PAGE);
    await page.getByRole("button", { name: "Record known quantization for Fireworks" }).click();
    const dialog = page.getByRole("dialog", { name: /Known quantization: Fireworks/ });
    // Nothing is chosen for the user: Save waits for a value.
    await expect(dialog.getByLabel("Quantization")).toHaveValue("");
    await dialog.getByLabel("How do you know?").fill("confirmed by the provider's docs");
    await dialog.getByLabel("Your name").fill("Ana");
    await expect(dialog.getByRole("button", { name: "Save" })).toBeDisabled();
    await dialog.getByLabel("Quantization").selectOption("nvfp4");
    await expect(dialog.getByRole("button", { name: "Save" })).toBeEnabled();
    await dialog.getByLabel("How do you know?").fill("x");
    await dialog.getByLabel("Your name").fill("Ana");
    await dialog.getByRole("button", { name: "Save" }).click();
    // The browser refuses a note under 3 characters; a longer one is accepted.
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("How do you know?").fill("confirmed by the provider's docs");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();

    const fireworks = page.getByRole("table", { name: "Providers" }).getByRole("row", { name: /^Fireworks/ });
    await expect(fireworks).toContainText("team");
    // The team's reason is on the row, not only in the dialog.
    await expect(fireworks).toContainText("“confirmed by the provider's docs”");
    await page.getByRole("button", { name: "Exclude 4-bit" }).click();
    await expect(fireworks).toContainText("Excluded: nvfp4");
    await screenshot(page, "comparison-team-quantization");

    // Clean up so other tests see the seed data. The row's button now says what it does.
    await page.getByRole("button", { name: "Edit team note for Fireworks" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove note" }).click();
    await expect(fireworks).toContainText("Included");
  });

  test("a malformed link falls back to defaults and says which part was ignored", async ({ page }) => {
    const response = await page.goto(`${MODEL_PAGE}?upw=7h&xq=int4,bogus&upmin=abc&sort=nope.asc&maxin=-3`);
    expect(response?.status()).toBe(200);
    const notice = page.getByRole("status", { name: "Link notice" });
    for (const part of ["upw=7h", "xq=bogus", "upmin=abc", "sort=nope.asc", "maxin=-3"]) await expect(notice).toContainText(part);
    await expect(page.getByRole("button", { name: "Exclude int4" })).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByTestId("summary")).toHaveText("5 of 11 providers included"); // int4 and the degraded BaseTen out
  });

  test("sorting by a column is kept in the link; CSV export downloads the table as shown", async ({ page }) => {
    await page.goto(MODEL_PAGE);
    const firstRow = page.getByRole("table", { name: "Providers" }).locator("tbody tr").first();
    await expect(firstRow).toContainText("Chutes"); // cheapest output first by default
    await page.getByRole("button", { name: /^Input \$\/M/ }).click();
    await expect(page).toHaveURL(/sort=inputPricePerM\.asc/);
    await expect(firstRow).toContainText("Chutes");
    await page.getByRole("button", { name: /^Input \$\/M/ }).click();
    await expect(page).toHaveURL(/sort=inputPricePerM\.desc/);
    await expect(firstRow).toContainText("Venice");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toBe("providers-moonshotai-kimi-k2.5.csv");
    const csv = await (await import("node:fs/promises")).readFile((await download.path()) as string, "utf8");
    const lines = csv.trim().split("\r\n");
    expect(lines).toHaveLength(12);
    expect(lines[0]).toContain("provider,tag,verdict");
    expect(lines[1]).toMatch(/^Venice,venice,Included/);
  });

  test("models: an unknown id is refused clearly; a known one is added and can be removed", async ({ page, request }) => {
    await page.goto(MODEL_PAGE);
    await page.getByLabel("OpenRouter model id").fill("nobody/nothing");
    await page.getByRole("button", { name: "Add model" }).click();
    await expect(page.getByRole("alert", { name: "Model error" })).toContainText('OpenRouter has no model "nobody/nothing"');

    await page.getByLabel("OpenRouter model id").fill("z-ai/glm-5");
    await page.getByRole("button", { name: "Add model" }).click();
    await expect(page).toHaveURL(/\/models\/z-ai\/glm-5/);
    await poll(request);
    await page.reload();
    await expect(page.getByTestId("summary")).toHaveText("3 of 4 providers included"); // Chutes is degraded (status -1)
    await page.getByLabel("Model", { exact: true }).selectOption("moonshotai/kimi-k2.5");
    await expect(page).toHaveURL(/\/models\/moonshotai\/kimi-k2\.5/);

    await page.goto("/models/z-ai/glm-5");
    page.once("dialog", (d) => d.accept());
    await page.getByRole("button", { name: "Stop watching" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "Watched models" })).toBeVisible();
    await expect(page.getByRole("region", { name: /GLM/ })).toHaveCount(0);
  });
});
