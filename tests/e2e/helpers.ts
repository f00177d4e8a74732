import { expect, type APIRequestContext, type APIResponse, type Locator, type Page } from "@playwright/test";
import { E2E_REPLICA_PORT } from "../../playwright.config";
import { E2E_ENGINE } from "./database";

export const REPLICA_URL = `http://127.0.0.1:${E2E_REPLICA_PORT}`;
export const SCREENSHOT_DIR = "tests/e2e/.output";

/** Runs one poll cycle through the app's own route, as a cron would. */
export async function poll(request: APIRequestContext) {
  const response = await request.post("/api/poll");
  expect(response.ok()).toBe(true);
  return response.json();
}

export async function replicaControl(request: APIRequestContext, route: "fault" | "patch" | "reset", body: unknown = {}) {
  const response = await request.post(`${REPLICA_URL}/__replica/${route}`, { data: body });
  expect(response.ok()).toBe(true);
}

/** The whole page, or only `part` of it (a form, a section) where the page is too long to read. */
export async function screenshot(page: Page, name: string, part?: Locator) {
  const suffix = E2E_ENGINE === "postgres" ? "-postgres" : "";
  const path = `${SCREENSHOT_DIR}/${name}${suffix}.png`;
  if (part) await part.screenshot({ path });
  else await page.screenshot({ path, fullPage: true });
}

/** What the window shows now (not the whole page): for a look at one part of a long page. */
export async function windowShot(page: Page, name: string) {
  const suffix = E2E_ENGINE === "postgres" ? "-postgres" : "";
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}${suffix}.png` });
}

export function expectSecurityHeaders(response: APIResponse | { headers(): Record<string, string> }, what: string) {
  const h = response.headers();
  expect(h["content-security-policy"], what).toContain("frame-ancestors 'none'");
  expect(h["content-security-policy"], what).not.toContain("unsafe-eval");
  expect(h["x-content-type-options"], what).toBe("nosniff");
  expect(h["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
}

/** A body that is plainly an error message: no stack trace, no source paths. */
export function expectNoStack(body: string, what: string) {
  expect(body, what).not.toMatch(/\n\s+at [\w.<>]+ \(|node_modules\/|\.tsx?:\d+|webpack:|Error: .*\n\s+at /);
}

/** The model page loads its history section (charts, change log) when it scrolls into view: scroll there. */
export async function scrollToHistory(page: Page) {
  // The section's anchor, not its heading: the placeholder's heading is replaced when the section loads.
  await page.locator("#history").scrollIntoViewIfNeeded();
}

/** The model page loads its data budget calculator when it comes near the viewport: scroll there. */
export async function scrollToBudget(page: Page) {
  await page.locator("#budget").scrollIntoViewIfNeeded();
  await page.getByRole("status", { name: "Budget summary" }).waitFor();
}

/**
 * Reloads until the page shows a reading taken at or after `since` (a `Date.now()` taken after a
 * change made outside the app: a replica fault, a patched answer), as `stamp` (a `<time dateTime>`
 * the page puts beside what it read) says. A page load within READ_REUSE_MS (2 s) of another load
 * of the same link is answered from that render (lib/queries/shared-pages.ts), so a reload right
 * after such a change may still show the state from before it. This waits for the condition that
 * proves the page is from after the change, not for a time; app writes (a poll, an edit) clear the
 * shared renders themselves and need none of this.
 */
export async function reloadUntilReadSince(page: Page, stamp: Locator, since: number, timeout = 20_000): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.reload();
        return Date.parse((await stamp.getAttribute("datetime")) ?? "");
      },
      { message: "a render of the page that read after the change", timeout, intervals: [250, 500, 1_000] },
    )
    .toBeGreaterThanOrEqual(since);
}
