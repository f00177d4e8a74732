import { expect, type APIRequestContext, type Page } from "@playwright/test";
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

export async function screenshot(page: Page, name: string) {
  const suffix = E2E_ENGINE === "postgres" ? "-postgres" : "";
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}${suffix}.png`, fullPage: true });
}
