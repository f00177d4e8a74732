import { expect, test, type Locator, type Page } from "@playwright/test";
import { poll, replicaControl, screenshot, windowShot } from "./helpers";

// The seed task done with the keyboard alone: "exclude 4-bit and Fireworks, uptime ≥ 95%", on a
// fresh load of the model page, moving forward with Tab as a keyboard user does. Every key press
// counts (Tab, Enter, each typed character). The count is printed; the test holds it under a
// ceiling so that a page that grows new tab stops in the way is noticed. Before the skip link,
// the single tab stop of the sort headers and the kept focus, the same walk took 67 key presses
// (51 after). The in-page navigation, the degraded-endpoints and probe rules and the column chooser
// added tab stops on the way since (59, then 61 with the two equivalence-probe rules); the eleven
// quantization values as one toolbar (a single tab stop, arrow keys inside) took it back to 51.

const MODEL_PAGE = "/models/moonshotai/kimi-k2.5";
const KEYSTROKE_CEILING = 60;

class Keyboard {
  presses = 0;
  constructor(private readonly page: Page) {}

  async press(key: string) {
    this.presses++;
    await this.page.keyboard.press(key);
  }

  async type(text: string) {
    for (const ch of text) await this.press(ch);
  }

  /** Tab forward until `target` has the focus. */
  async tabTo(target: Locator) {
    const element = await target.elementHandle();
    if (!element) throw new Error("no such target");
    for (let i = 0; i < 300; i++) {
      await this.press("Tab");
      if (await element.evaluate((el) => el === document.activeElement)) return;
    }
    throw new Error("300 Tabs did not reach the target");
  }
}

test.describe("keyboard", () => {
  test.beforeAll(async ({ request }) => {
    await replicaControl(request, "reset");
    await poll(request);
  });

  test('"exclude 4-bit and Fireworks, uptime ≥ 95%" with the keyboard only', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(MODEL_PAGE);
    await expect(page.getByTestId("summary")).toHaveText("10 of 11 providers included"); // BaseTen is degraded
    const keys = new Keyboard(page);

    // The first Tab offers the skip link; Enter moves past the header and navigation.
    const skip = page.getByRole("link", { name: "Skip to content" });
    await keys.press("Tab");
    if (await skip.count()) {
      await expect(skip).toBeFocused();
      await expect(skip).toBeVisible();
      await screenshot(page, "keyboard-skip-link");
      await keys.press("Enter");
    }

    const fourBit = page.getByRole("button", { name: "Exclude 4-bit" });
    await keys.tabTo(fourBit);
    await keys.press("Enter");
    await expect(fourBit).toHaveAttribute("aria-pressed", "true");
    await expect(fourBit).toBeFocused();

    const uptime = page.getByLabel("Minimum uptime (%)");
    await keys.tabTo(uptime);
    await keys.type("95");
    await expect(uptime).toHaveValue("95");

    const fireworks = page.getByRole("button", { name: "Exclude Fireworks" });
    await keys.tabTo(fireworks);
    await keys.press("Enter");
    console.log(`[keyboard] "exclude 4-bit and Fireworks, uptime ≥ 95%": ${keys.presses} key presses`);
    // The focus stays on the row's button, whose label now says what it would do next.
    const includeFireworks = page.getByRole("button", { name: "Include Fireworks" });
    await expect(includeFireworks).toBeFocused();
    await expect(page.getByTestId("summary")).toHaveText("4 of 11 providers included");
    await screenshot(page, "keyboard-task-done");

    expect(keys.presses).toBeLessThanOrEqual(KEYSTROKE_CEILING);

    // And back: Enter again includes it, the focus still on the same button.
    await keys.press("Enter");
    await expect(page.getByRole("button", { name: "Exclude Fireworks" })).toBeFocused();
  });

  test("the sort headers are one tab stop, moved through with the arrow keys; the charts are none", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(MODEL_PAGE);
    const table = page.getByRole("table", { name: "Providers" });
    const headers = table.locator("thead").getByRole("button");
    await expect(headers).toHaveCount(10); // the default columns
    // One header (the sorted column's) is in the tab order; the others are reached by arrows.
    await expect(table.locator("thead button[tabindex='0']")).toHaveCount(1);
    const sorted = table.locator("thead button[tabindex='0']");
    await expect(sorted).toContainText("Output $/M");
    await sorted.focus();
    await page.keyboard.press("ArrowRight");
    const status = headers.filter({ hasText: "Status" });
    await expect(status).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/sort=status\.asc/);
    await expect(status).toBeFocused();
    await page.keyboard.press("Home");
    await expect(headers.filter({ hasText: "Provider" })).toBeFocused();
    // Tab from a header leaves the header row for the first row's button.
    await page.keyboard.press("Tab");
    await expect(table.locator("tbody tr").first().getByRole("button").first()).toBeFocused();

    // The history charts, once scrolled into view, are not tab stops.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const history = page.getByRole("region", { name: "History" });
    await expect(history.locator(".recharts-surface").first()).toBeVisible({ timeout: 30_000 }); // fetched on scrolling
    await expect(history.locator(".recharts-surface[tabindex]")).toHaveCount(0);
    await expect(history.locator("[role='application']")).toHaveCount(0);
  });

  test("the quantization values are one tab stop: arrow keys move along them, Enter toggles one", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(MODEL_PAGE);
    const values = page.getByRole("toolbar", { name: "Quantization values" });
    await expect(values.getByRole("button")).toHaveCount(11);
    await expect(values.locator('[tabindex="0"]')).toHaveCount(1); // one stop for the eleven
    await page.getByRole("button", { name: "Exclude unknown" }).focus();
    await page.keyboard.press("Tab");
    await expect(values.getByRole("button", { name: "Exclude int4" })).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect(values.getByRole("button", { name: "Exclude int8" })).toBeFocused();
    await page.keyboard.press("End");
    await expect(values.getByRole("button", { name: "Exclude fp32" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(values.getByRole("button", { name: "Exclude fp32" })).toHaveAttribute("aria-pressed", "true");
    await expect(page).toHaveURL(/xq=fp32/);
    // Tab leaves the toolbar at once, for the next control.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("checkbox", { name: /Accept unknown quantization/ })).toBeFocused();
  });

  test("after 'Skip to content' come a skip link to each section of the page; Enter on one moves the focus there", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(MODEL_PAGE);
    await expect(page.getByTestId("summary")).toHaveText("10 of 11 providers included");
    const expected = ["Skip to content", "Skip to Providers", "Skip to Routing", "Skip to Budget", "Skip to History", "Skip to Fidelity"];
    for (const name of expected) {
      await page.keyboard.press("Tab");
      const link = page.getByRole("link", { name, exact: true });
      await expect(link).toBeFocused();
      await expect(link).toBeVisible(); // shown while it has the focus
      await expect(link).toBeInViewport();
    }
    await screenshot(page, "keyboard-skip-to-fidelity");
    // Back to History's, and Enter: the page is at the history section, and the focus with it.
    await page.keyboard.press("Shift+Tab");
    await expect(page.getByRole("link", { name: "Skip to History", exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/#history$/);
    const history = page.locator("#history");
    await expect(history).toBeFocused();
    await expect(history).toBeInViewport();
    // The next Tab goes on from there: the first control of the history section (its range picker,
    // once the section has loaded), not back at the top of the page.
    await expect(page.getByRole("region", { name: "History" }).getByRole("figure").first()).toBeVisible({ timeout: 30_000 });
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest("#history")))).toBe(true);
    await windowShot(page, "keyboard-skipped-to-history");

    // A page without sections offers only the first.
    await page.goto("/spend");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
    await expect(page.getByRole("link", { name: /^Skip to (Providers|Routing|Budget|History|Fidelity)$/ })).toHaveCount(0);
  });

  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    test(`after a rule change, saving "record known" keeps the page where it was and gives the focus back to the row's button (${viewport.width} px)`, async ({ page, request }) => {
      await page.setViewportSize(viewport);
      await page.goto(MODEL_PAGE);
      await expect(page.getByTestId("summary")).toHaveText("10 of 11 providers included");
      // A rule change first: the link changes in place (a shallow URL update).
      await page.getByRole("button", { name: "Exclude 4-bit" }).click();
      await expect(page).toHaveURL(/xq=int4,fp4,mxfp4,nvfp4/);
      await expect(page.getByTestId("summary")).toHaveText("5 of 11 providers included");

      // DeepInfra's "record known", scrolled to the middle of the window, opened with a click.
      const opener = page.getByRole("button", { name: "Record known quantization for DeepInfra" }).locator("visible=true");
      await opener.evaluate((e) => e.scrollIntoView({ block: "center" }));
      const scrolledTo = await page.evaluate(() => window.scrollY);
      expect(scrolledTo).toBeGreaterThan(300);
      await opener.click();
      const dialog = page.getByRole("dialog", { name: "Known quantization: DeepInfra" });
      await dialog.getByLabel("Quantization").selectOption("fp8");
      await dialog.getByLabel("How do you know?").fill("their docs say fp8");
      await dialog.getByLabel("Your name").fill("Kim");
      await dialog.getByRole("button", { name: "Save" }).click();
      await expect(dialog).toBeHidden();

      // The row shows the note, and the focus is back on its button, now "edit team note", on screen.
      const edit = page.getByRole("button", { name: "Edit team note for DeepInfra" }).locator("visible=true");
      await expect(edit).toBeFocused();
      await expect(edit).toBeInViewport();
      await expect(page.getByText("“their docs say fp8”").locator("visible=true")).toBeInViewport();
      // The page did not jump: it is where it was when the dialog opened.
      expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolledTo)).toBeLessThan(50);
      await expect(page).toHaveURL(/xq=int4,fp4,mxfp4,nvfp4/);
      await windowShot(page, `keyboard-record-known-saved-${viewport.width}`);

      // With the keyboard: Enter opens it again, Escape closes it, the focus is back on the button.
      await page.keyboard.press("Enter");
      await expect(dialog).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(edit).toBeFocused();
      // Removing the note hands the focus back too, to the button that says "record known" again.
      await page.keyboard.press("Enter");
      await dialog.getByRole("button", { name: "Remove note" }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole("button", { name: "Record known quantization for DeepInfra" }).locator("visible=true")).toBeFocused();
      expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolledTo)).toBeLessThan(50);
      // Nothing left behind for the next test.
      expect((await (await request.get(`/api/models/moonshotai/kimi-k2.5/known-quantization`)).json()).known).toEqual([]);
    });
  }
});
