import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { screenshot } from "./helpers";
import { FAKE_MANAGEMENT_KEY, startSecuredServer, type SecuredServer } from "./secured-server";

// Key controls on a dashboard without BASIC_AUTH (issue 22, section 4): with a management key
// configured, the Keys section is read-only, and the key actions, even posted by hand past the
// page, change nothing: no write reaches the replica's keys routes and no key-change row is
// written. With ALLOW_KEY_CHANGES_WITHOUT_AUTH=true they go through, recorded as unauthenticated.

test.describe.configure({ mode: "serial", timeout: 120_000 });

const KEY_ACTIONS = ["choosePipelineKeyAction", "enforceBudgetAction", "setKeyDisabledAction", "createPipelineKeyAction"];

/** The server actions' ids in this build, by exported name (Next.js writes them at build time). */
function actionIds(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(".next/server/server-reference-manifest.json", "utf8")) as { node: Record<string, { exportedName: string; filename: string }> };
  return Object.fromEntries(Object.entries(manifest.node).filter(([, a]) => a.filename === "app/spend/keys-actions.ts").map(([id, a]) => [a.exportedName, id]));
}

/** Posts a key action as the page's form would (a server action call), past any hidden button. */
async function postAction(server: SecuredServer, id: string, fields: Record<string, string>): Promise<string> {
  const form = new FormData();
  form.set("0", JSON.stringify(["$undefined", "$K1"])); // (previous state, the form's data)
  for (const [k, v] of Object.entries(fields)) form.set(`1_${k}`, v);
  const response = await fetch(`${server.url}/spend`, { method: "POST", headers: { "next-action": id, origin: server.url, accept: "text/x-component" }, body: form });
  return `${response.status} ${await response.text()}`;
}

const keyWrites = (server: SecuredServer) => server.replica.state.requests.filter((r) => r.path.includes("/keys") && r.method !== "GET");

async function spendPage(page: Page, server: SecuredServer) {
  await page.goto(`${server.url}/spend`);
  return page.getByRole("region", { name: "Keys" });
}

test.describe("without BASIC_AUTH", () => {
  let server: SecuredServer;
  test.beforeAll(async () => {
    test.setTimeout(150_000);
    server = await startSecuredServer({ BASIC_AUTH: "", OPENROUTER_MANAGEMENT_KEY: FAKE_MANAGEMENT_KEY });
  });
  test.afterAll(async () => server?.stop());

  test("the Keys section is read-only, and key actions posted by hand write nothing anywhere", async ({ page }) => {
    const keys = await spendPage(page, server);
    await expect(keys.getByRole("note", { name: "Key changes are off" })).toContainText(
      "Read-only. Key changes are off: this dashboard is not protected by BASIC_AUTH",
    );
    await expect(keys.getByRole("table", { name: "API keys" })).toBeVisible(); // the keys are still listed
    await expect(keys.getByRole("button")).toHaveCount(0);
    await expect(keys).toContainText("No key has been changed from the dashboard yet.");
    await screenshot(page, "keys-read-only");

    const ids = actionIds();
    expect(Object.keys(ids).sort()).toEqual([...KEY_ACTIONS].sort());
    const hash = server.replica.state.account.keys.find((k) => k.name === "Batch pipeline")?.hash ?? "no such key";
    for (const name of KEY_ACTIONS) {
      const answer = await postAction(server, ids[name], { hash, disabled: "true", name: "From outside" });
      expect(answer, name).toMatch(/^200 /);
      expect(answer, name).toContain("Key changes are off: this dashboard is not protected by BASIC_AUTH");
    }
    expect(keyWrites(server)).toEqual([]);
    await page.reload();
    await expect(keys).toContainText("No key has been changed from the dashboard yet.");
  });
});

test.describe("without BASIC_AUTH but with ALLOW_KEY_CHANGES_WITHOUT_AUTH=true", () => {
  let server: SecuredServer;
  test.beforeAll(async () => {
    test.setTimeout(150_000);
    server = await startSecuredServer({ BASIC_AUTH: "", ALLOW_KEY_CHANGES_WITHOUT_AUTH: "true", OPENROUTER_MANAGEMENT_KEY: FAKE_MANAGEMENT_KEY });
  });
  test.afterAll(async () => server?.stop());

  test("the key actions go through and are recorded as unauthenticated", async ({ page }) => {
    const keys = await spendPage(page, server);
    await expect(keys.getByRole("note", { name: "Key changes are off" })).toHaveCount(0);
    await keys.getByRole("button", { name: "Use for pipeline: “Batch pipeline”" }).click();
    const panel = keys.getByRole("group", { name: "Pipeline key", exact: true });
    await expect(panel).toContainText("Batch pipeline");
    await panel.getByRole("button", { name: "Emergency stop" }).click();
    await expect(panel).toContainText("Stopped (disabled)");
    expect(keyWrites(server)).toHaveLength(1); // the stop, at the replica's keys route

    const changes = keys.getByRole("table", { name: "Key changes" });
    await expect(changes.getByRole("row")).toHaveCount(3); // header + pipeline key, stop
    for (const row of [1, 2]) await expect(changes.getByRole("row").nth(row)).toContainText("unauthenticated (ALLOW_KEY_CHANGES_WITHOUT_AUTH)");
    await screenshot(page, "keys-unauthenticated");
  });
});
