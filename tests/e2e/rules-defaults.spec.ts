import { expect, test } from "@playwright/test";
import { poll, replicaControl, screenshot, scrollToBudget } from "./helpers";

// Defaults that must not mislead a first-time user (issue 14, items 2 and 3): degraded endpoints
// are left out unless someone says otherwise, the calculator's headline says which rules produced
// it, a rule that excludes the model author's own endpoint says so, and a view including nothing
// cannot be copied or exported as routing preferences.

const KIMI = "moonshotai/kimi-k2.5";
const MODEL_PAGE = `/models/${KIMI}`;
/** Every Kimi endpoint is 4-bit or of unknown quantization: these rules include none. */
const NOTHING_INCLUDED = "xq=int4,fp4,mxfp4,nvfp4&unk=false";

test.describe("rules: honest defaults", () => {
  test.beforeAll(async ({ request }) => {
    await replicaControl(request, "reset");
    await poll(request);
    // The seed's knowledge: no quantization recorded by the team (404 when there was none).
    const cleared = await request.delete(`/api/models/${KIMI}/known-quantization?tag=fireworks`);
    expect([200, 404]).toContain(cleared.status());
  });

  test("degraded endpoints are excluded out of the box, by a rule that can be turned off and is kept in the link", async ({ page, request }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(MODEL_PAGE);
    const table = page.getByRole("table", { name: "Providers" });
    const baseten = table.getByRole("row", { name: /^BaseTen/ });
    await expect(page.getByTestId("summary")).toHaveText("10 of 11 providers included");
    await expect(baseten).toContainText("Excluded: degraded (status -5)");
    const degraded = page.getByRole("checkbox", { name: /Exclude degraded endpoints/ });
    await expect(degraded).toBeChecked();
    await expect(page.getByLabel("Routing preferences JSON")).not.toContainText("baseten");
    // The headline figure says which rules produced it.
    await scrollToBudget(page);
    const summary = page.getByRole("status", { name: "Budget summary" });
    await expect(summary).toContainText("Cheapest included");
    await expect(summary).toContainText("rules: degraded endpoints excluded · 10 of 11 included");
    // The routing API reads a link without `deg` the same way.
    const routing = await (await request.get(`/api/models/${KIMI}/routing`)).json();
    expect(routing.included).toHaveLength(10);
    expect(routing.provider.only).not.toContain("baseten/fp4");
    await screenshot(page, "rules-default-degraded");

    await degraded.uncheck();
    await expect(page).toHaveURL(/deg=false/);
    await expect(page.getByTestId("summary")).toHaveText("11 of 11 providers included");
    await expect(baseten).toContainText("Included");
    await expect(page.getByLabel("Routing preferences JSON")).toContainText('"baseten/fp4"');
    await expect(summary).toContainText("no rules set: all 11 included");
    await expect(summary).toContainText("$136.00");
    await expect(summary).toContainText("Chutes (chutes/int4)");
    const off = await (await request.get(`/api/models/${KIMI}/routing?deg=false`)).json();
    expect(off.provider.only).toContain("baseten/fp4");
  });

  test("a link or saved view without deg (as before the rule) excludes degraded endpoints; a mistyped value is reported", async ({ page, request }) => {
    const table = page.getByRole("table", { name: "Providers" });
    const baseten = table.getByRole("row", { name: /^BaseTen/ });
    const degraded = page.getByRole("checkbox", { name: /Exclude degraded endpoints/ });
    const made = await request.post("/api/views", { data: { name: "Old view without deg", modelId: KIMI, query: "xq=int4" } });
    expect(made.status()).toBe(201);
    const old = await made.json();
    await page.goto(`/v/${old.slug}`);
    await expect(page.getByTestId("summary")).toHaveText("5 of 11 providers included");
    await expect(baseten).toContainText("Excluded: degraded (status -5)");
    expect((await request.delete(`/api/views/${old.slug}`)).status()).toBe(200);

    // A mistyped value does not silently turn the rule off: it is ignored, and the page says so.
    await page.goto(`${MODEL_PAGE}?deg=ture`);
    await expect(page.getByRole("status", { name: "Link notice" })).toContainText("deg=ture");
    await expect(degraded).toBeChecked();
  });

  test("the headline lists the active rules", async ({ page }) => {
    await page.goto(`${MODEL_PAGE}?xq=int4,fp4,mxfp4,nvfp4&xp=fireworks&upmin=95`);
    await scrollToBudget(page);
    await expect(page.getByRole("status", { name: "Budget summary" })).toContainText(
      "rules: 4-bit quantization excluded; Fireworks excluded by hand; uptime ≥ 95% (30m); degraded endpoints excluded · 4 of 11 included",
    );
  });

  test("a quantization rule that excludes the model author's own endpoint says so next to the rule", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(MODEL_PAGE);
    const rules = page.getByRole("region", { name: "Rules" });
    const note = rules.getByRole("note", { name: "Author’s own endpoint" });
    await expect(note).toHaveCount(0);
    await rules.getByRole("button", { name: "Exclude 4-bit" }).click();
    await expect(note).toContainText("This excludes Moonshot AI (moonshotai/int4, int4), the model author’s own endpoint and the fidelity probe’s reference.");
    await expect(note).toContainText("the probe measures the other endpoints against it");
    await expect(note).toContainText("Some models are released quantized");
    await rules.screenshot({ path: "tests/e2e/.output/rules-author-endpoint.png" });

    // Included by hand over the rule: the note stays, and says so.
    const moonshot = page.getByRole("table", { name: "Providers" }).getByRole("row", { name: /^Moonshot AI/ });
    await moonshot.getByRole("button", { name: "Include Moonshot AI" }).click();
    await expect(note).toContainText("This would exclude Moonshot AI (moonshotai/int4, int4)");
    await expect(note).toContainText("which you included by hand");

    // A rule that does not touch int4 says nothing.
    await page.goto(`${MODEL_PAGE}?xq=fp8`);
    await expect(page.getByTestId("summary")).toHaveText("10 of 11 providers included");
    await expect(note).toHaveCount(0);
  });

  test("with nothing included there is no JSON to copy, the API answers 422, the calculator says why and saving warns", async ({ page, request }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${MODEL_PAGE}?${NOTHING_INCLUDED}`);
    await expect(page.getByTestId("summary")).toHaveText("0 of 11 providers included");

    const routing = page.getByRole("region", { name: "Routing preferences" });
    await expect(routing.getByRole("button", { name: "Copy JSON" })).toHaveCount(0);
    await expect(page.getByLabel("Routing preferences JSON")).toHaveCount(0);
    const refusal = routing.getByRole("alert", { name: "Nothing to export" });
    await expect(refusal).toContainText("No provider is included, so there is nothing to export.");
    await expect(refusal).toContainText("it means no restriction at all");
    expect((await request.get(`/api/models/${KIMI}/routing?${NOTHING_INCLUDED}`)).status()).toBe(422);

    await scrollToBudget(page);
    await expect(page.getByRole("status", { name: "Budget summary" })).toContainText(
      "Nothing is included under the current rules, so there is no provider to price the plan at.",
    );
    await expect(page.getByRole("status", { name: "Budget summary" })).not.toContainText("has a price");

    const views = page.getByRole("region", { name: "Saved views" });
    await expect(views.getByRole("alert", { name: "Saving warning" })).toContainText("This view includes no provider: its routing link answers 422");
    await page.getByLabel("View name").fill("Nothing at all");
    await page.getByRole("button", { name: "Save view" }).click();
    const saved = views.getByRole("status").filter({ hasText: "short link" });
    await expect(saved).toContainText("Warning: it includes no provider; its routing link answers 422.");
    await screenshot(page, "rules-nothing-included");
    const slug = /\/v\/([a-z0-9]+)/.exec((await saved.textContent()) ?? "")?.[1];
    expect(slug).toBeTruthy();
    expect((await request.get(`/api/views/${slug}/routing`)).status()).toBe(422);
    expect((await request.delete(`/api/views/${slug}`)).status()).toBe(200);

    // One rule loosened: the export and its copy button are back.
    await page.getByRole("checkbox", { name: /Accept unknown quantization/ }).check();
    await expect(page.getByTestId("summary")).toHaveText("5 of 11 providers included");
    await expect(routing.getByRole("button", { name: "Copy JSON" })).toBeVisible();
    await expect(page.getByLabel("Routing preferences JSON")).toContainText('"deepinfra"');
    await expect(views.getByRole("alert", { name: "Saving warning" })).toHaveCount(0);
  });
});
