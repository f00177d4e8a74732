import { expect, test, type APIResponse } from "@playwright/test";
import { poll, replicaControl, screenshot } from "./helpers";

// A page load is answered from a render shared by the viewers of the same link for a moment
// (lib/queries/shared-pages.ts): each answer must still carry a CSP nonce of its own, on every
// script, and a write must show on the next load.

const KIMI = "moonshotai/kimi-k2.5";
const SHARED = "x-routeboard-shared-render";
/** What a browser asks for when it loads a page. */
const PAGE_LOAD = { headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "sec-fetch-dest": "document" } };

function headerNonce(response: APIResponse): string {
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
  expect(nonce, "a nonce in the CSP header").toBeTruthy();
  return nonce!;
}

/** Every nonce in the page: on script and link tags, and in the React payload that rebuilds them. */
function noncesIn(html: string): Set<string> {
  return new Set([...html.matchAll(/nonce(?:="|\\":\\")([A-Za-z0-9+/=]+)/g)].map((m) => m[1]));
}

test.describe("pages shared between the viewers of a link", () => {
  test.beforeEach(async ({ request }) => {
    await replicaControl(request, "reset");
    await poll(request);
  });

  test("viewers of one link share one render, each answer with a nonce of its own on every script", async ({ request, page }) => {
    const [first, second] = await Promise.all([request.get(`/models/${KIMI}`, PAGE_LOAD), request.get(`/models/${KIMI}`, PAGE_LOAD)]);
    expect(first.status()).toBe(200);
    expect(second.status()).toBe(200);
    expect(first.headers()[SHARED]).toMatch(/^[0-9a-f]{8}$/);
    expect(second.headers()[SHARED], "both answered from the same render").toBe(first.headers()[SHARED]);

    const [a, b] = [headerNonce(first), headerNonce(second)];
    expect(a).not.toBe(b);
    const [htmlA, htmlB] = [await first.text(), await second.text()];
    expect(htmlA).toContain("Kimi K2.5");
    // 19 places on this page (scripts, the stylesheet, and the payload that rebuilds them): all the answer's own.
    expect(htmlA.split(a).length - 1).toBeGreaterThan(5);
    expect(noncesIn(htmlA)).toEqual(new Set([a]));
    expect(noncesIn(htmlB)).toEqual(new Set([b]));
    expect(htmlA.replaceAll(a, "NONCE")).toBe(htmlB.replaceAll(b, "NONCE"));

    // In a browser the shared page runs under its own nonce: no CSP error, and it is interactive.
    const cspErrors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    const loaded = await page.goto(`/models/${KIMI}`);
    expect(loaded?.headers()[SHARED]).toMatch(/^[0-9a-f]{8}$/);
    await expect(page.getByTestId("summary")).toHaveText("10 of 11 providers included"); // the degraded BaseTen is out by default
    await page.getByRole("button", { name: "Exclude int4", exact: true }).click();
    await expect(page).toHaveURL(/xq=int4/);
    await expect(page.getByRole("table", { name: "Providers" }).getByRole("row", { name: /^Chutes/ })).toContainText("Excluded: int4");
    await screenshot(page, "shared-page");
    expect(cspErrors).toEqual([]);
  });

  test("a write shows on the next load: the shared render is dropped", async ({ request }) => {
    const before = await request.get(`/models/${KIMI}`, PAGE_LOAD);
    expect(before.headers()[SHARED]).toBeTruthy();
    const name = `Shared render check ${Date.now()}`;
    const created = await request.post("/api/views", { data: { name, modelId: KIMI, query: "xq=int4" } });
    expect(created.status()).toBe(201);
    const view = await created.json();

    const after = await request.get(`/models/${KIMI}`, PAGE_LOAD);
    expect(after.headers()[SHARED]).toBeTruthy();
    expect(after.headers()[SHARED], "a new render after the write").not.toBe(before.headers()[SHARED]);
    expect(await before.text()).not.toContain(name);
    expect(await after.text()).toContain(name);

    // A poll is a write too.
    await poll(request);
    const afterPoll = await request.get(`/models/${KIMI}`, PAGE_LOAD);
    expect(afterPoll.headers()[SHARED]).not.toBe(after.headers()[SHARED]);
    expect((await request.delete(`/api/views/${view.slug}`)).ok()).toBe(true);
  });

  test("following links stays in the page: the client router's fetches and server actions get RSC payloads, never a shared page", async ({ page }) => {
    const routerFetches: Array<{ url: string; type: string; shared?: string }> = [];
    page.on("response", (r) => {
      const url = new URL(r.url());
      // The router's fetches and server actions (a POST to a page); the page's own JSON API calls
      // (the fidelity section's estimate) are not the router's.
      if (url.searchParams.has("_rsc") || (r.request().method() === "POST" && !url.pathname.startsWith("/api/"))) {
        routerFetches.push({ url: url.pathname, type: r.headers()["content-type"] ?? "", shared: r.headers()[SHARED] });
      }
    });
    await page.goto(`/models/${KIMI}`);
    await page.evaluate(() => Object.assign(window, { loadedOnce: "the same document" }));
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Models" }).click();
    await expect(page.getByRole("heading", { name: "Watched models" })).toBeVisible();
    await page.getByRole("link", { name: /Kimi K2\.5/ }).first().click();
    await expect(page).toHaveURL(new RegExp(`/models/${KIMI}$`));
    await page.getByRole("button", { name: "Poll now" }).click(); // a server action, then the page's refresh
    await expect(page.getByRole("status").filter({ hasText: "Polled 1 model" })).toBeVisible();
    // No full reload on the way: a shared HTML page answering the router would have caused one.
    expect(await page.evaluate(() => (window as unknown as { loadedOnce?: string }).loadedOnce)).toBe("the same document");
    expect(routerFetches.some((f) => f.url === "/")).toBe(true);
    expect(routerFetches.length).toBeGreaterThan(1);
    for (const fetched of routerFetches) {
      expect(fetched.type, fetched.url).toContain("text/x-component");
      expect(fetched.shared, fetched.url).toBeUndefined();
    }
  });

  test("not-found pages, a saved view's redirect and HEAD are answered for their own request", async ({ request, page }) => {
    for (let i = 0; i < 2; i++) {
      const missing = await request.get("/models/nobody/nothing", PAGE_LOAD);
      expect(missing.status()).toBe(404);
      expect(missing.headers()[SHARED]).toBeUndefined();
      const nonce = headerNonce(missing);
      expect(noncesIn(await missing.text())).toEqual(new Set([nonce]));
    }
    const head = await request.head(`/models/${KIMI}`, PAGE_LOAD);
    expect(head.status()).toBe(200);
    expect(head.headers()[SHARED]).toBeUndefined();

    const created = await request.post("/api/views", { data: { name: "Redirect check", modelId: KIMI, query: "xq=int4" } });
    const { slug } = await created.json();
    const redirect = await request.get(`/v/${slug}`, { ...PAGE_LOAD, maxRedirects: 0 });
    expect(redirect.status()).toBe(307);
    expect(redirect.headers()["location"]).toBe(`/models/${KIMI}?xq=int4&view=${slug}`);
    expect(redirect.headers()[SHARED]).toBeUndefined();
    // The browser follows it to the model page, which is shared like any other.
    const landed = await page.goto(`/v/${slug}`);
    await expect(page).toHaveURL(new RegExp(`view=${slug}`));
    expect(landed?.headers()[SHARED]).toMatch(/^[0-9a-f]{8}$/);
    await expect(page.getByTestId("summary")).toHaveText("5 of 11 providers included"); // int4 and the degraded BaseTen out
    expect((await request.delete(`/api/views/${slug}`)).ok()).toBe(true);
  });
});
