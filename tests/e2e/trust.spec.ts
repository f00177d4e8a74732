import { expect, test } from "@playwright/test";
import { E2E_ENGINE } from "./database";
import { expectNoStack, expectSecurityHeaders, poll, replicaControl, screenshot } from "./helpers";

// Trust on the normal test server: security headers, odd values and HTML from OpenRouter shown
// safely, bad input answered plainly, changes from another origin refused.

const KIMI = "moonshotai/kimi-k2.5";
const XSS = `<img src=x onerror=alert(1)>`;

test.describe("trust: headers, odd values, bad input, other origins", () => {
  test.beforeEach(async ({ request }) => replicaControl(request, "reset"));

  test("every kind of response carries the security headers, and pages run under the CSP", async ({ page, request }) => {
    const cspErrors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    const pageResponse = await page.goto(`/models/${KIMI}`);
    expect(pageResponse).not.toBeNull();
    expectSecurityHeaders(pageResponse!, "page");
    expect(pageResponse!.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    // Hydrated under the CSP: the button's server action answers.
    await page.getByRole("button", { name: "Poll now" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Polled 1 model" })).toBeVisible();
    // The not-found page is rendered per request too, so its scripts also carry the nonce.
    expect((await page.goto("/no/such/page"))?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    await page.getByRole("link", { name: "Back to the watched models" }).click();
    await expect(page.getByRole("heading", { name: "Watched models" })).toBeVisible();
    expect(cspErrors).toEqual([]);

    const html = await (await request.get("/")).text();
    const script = /src="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    for (const [what, url] of [
      ["API", "/api/models"],
      ["health", "/api/health"],
      ["not found", "/models/nobody/nothing"],
      ["static file", script as string],
    ]) {
      expectSecurityHeaders(await request.get(url), what);
    }
  });

  test("odd values from OpenRouter are shown as they are: unknown quantization, no uptime, no price", async ({ page, request }) => {
    await replicaControl(request, "patch", { model: KIMI, tag: "deepinfra", set: { quantization: "fp5" } });
    await replicaControl(request, "patch", { model: KIMI, tag: "together", set: { uptime_last_30m: null, latency_last_30m: null } });
    await replicaControl(request, "patch", { model: KIMI, tag: "venice", set: { pricing: { prompt: "-1", completion: "-1" } } });
    await poll(request);

    // The Tag column (hidden by default) is chosen in the link: rows are found by their tag.
    await page.goto(`/models/${KIMI}?cols=tag,quantization,inputPricePerM,outputPricePerM,uptime30m,latencyP50Ms`);
    const table = page.getByRole("table", { name: "Providers" });
    await expect(table).toBeVisible();
    // Cells by column name: [provider, ...cells] in header order.
    const headers = (await table.getByRole("columnheader").allInnerTexts()).map((h) => h.replace(/[▲▼↕]/g, "").trim().toLowerCase());
    const cell = async (tag: string, column: string) => {
      const row = table.getByRole("row").filter({ has: page.getByText(tag, { exact: true }) });
      const cells = await row.locator("th, td").allInnerTexts();
      return cells[headers.indexOf(column.toLowerCase())].trim();
    };
    expect(await cell("deepinfra", "Quantization")).toMatch(/^fp5\b/);
    expect(await cell("together", "Uptime 30m")).toBe("—");
    expect(await cell("together", "Latency p50")).toBe("—");
    expect(await cell("deepinfra", "Latency p50")).toMatch(/^\d[\d,.]* ?(ms|s)$/); // a known value still shows
    expect(await cell("venice", "Input $/M")).toBe("—");
    expect(await cell("venice", "Output $/M")).toBe("—");
    await expect(table).not.toContainText("-1000000");
    await expect(table).not.toContainText("$-");
    // Without a listed price Venice gets no traffic: excluded, and not in the routing export.
    expect(await cell("venice", "Verdict")).toContain("Excluded: no input price; no output price");
    await expect(page.getByLabel("Routing preferences JSON")).not.toContainText('"venice"');
    await screenshot(page, "trust-odd-values");

    const api = await (await request.get(`/api/models/${KIMI}/providers`)).json();
    const venice = api.endpoints.find((e: { tag: string }) => e.tag === "venice");
    expect(venice).toMatchObject({ inputPricePerM: null, outputPricePerM: null });
    expect(api.endpoints.find((e: { tag: string }) => e.tag === "deepinfra").quantization).toBe("fp5");
  });

  test("a provider name with HTML in it is shown as text: nothing injected, no script runs", async ({ page, request }) => {
    await replicaControl(request, "patch", { model: KIMI, tag: "novita", set: { provider_name: XSS } });
    await poll(request);
    let dialogs = 0;
    page.on("dialog", async (d) => {
      dialogs++;
      await d.dismiss();
    });
    await page.goto(`/models/${KIMI}`);
    const table = page.getByRole("table", { name: "Providers" });
    await expect(table.getByRole("rowheader", { name: XSS, exact: true })).toBeVisible();
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    await page.goto("/");
    await page.goto(`/models/${KIMI}`);
    await expect(table).toBeVisible();
    expect(dialogs).toBe(0);
    await screenshot(page, "trust-html-provider");
    const api = await (await request.get(`/api/models/${KIMI}/providers`)).json();
    expect(api.endpoints.find((e: { tag: string }) => e.tag === "novita").provider).toBe(XSS);
  });

  test("bad links get a clear page or error: never a stack trace, never a 500", async ({ request, page }) => {
    const long = "a".repeat(3000);
    const cases: Array<[string, number]> = [
      ["/models/..%2F..%2Fetc/passwd", 404],
      ["/models/moonshotai/..%2F..%2Fkimi", 404],
      ["/models/moonshotai%2Fkimi-k2.5/x", 404],
      ["/models/moonshotai/kimi-k2.5%00", 404],
      [`/models/moonshotai/${long}`, 404],
      ["/models/moonshotai", 404],
      ["/v/no-such-saved-view", 404],
      ["/api/models/..%2F..%2Fetc/passwd/providers", 400],
      ["/api/models/a/b%2Fc/providers", 400],
      [`/api/models/${long}/x/providers`, 400],
      ["/api/models/nobody/nothing/providers", 404],
      ["/api/nothing-here", 404],
    ];
    for (const [url, status] of cases) {
      const response = await request.get(url);
      const body = await response.text();
      expect(response.status(), url.slice(0, 80)).toBe(status);
      expectNoStack(body, url.slice(0, 80));
      if (url.startsWith("/api/") && status === 400) expect(JSON.parse(body).error.message, url).toMatch(/^(model|author|slug)/);
      if (url.startsWith("/models") || url.startsWith("/v/")) expect(body).toContain("Not found");
    }
    // Broken % escapes (a link cut mid-character): Next.js alone would answer a bare 500.
    for (const url of ["/models/moonshotai/kimi%", "/models/%E0%A4%A/x", "/v/%zz"]) {
      const response = await request.get(url);
      const body = await response.text();
      expect(response.status(), url).toBe(400);
      expect(response.headers()["content-type"], url).toContain("text/html");
      expect(response.headers()["x-content-type-options"], url).toBe("nosniff");
      expect(body, url).toContain("This link is broken");
      expectNoStack(body, url);
    }
    await page.goto("/models/moonshotai/kimi%E0%A4%A");
    await expect(page.getByRole("heading", { name: "Broken link" })).toBeVisible();
    await screenshot(page, "broken-link");
    const brokenApi = await request.get(`/api/models/moonshotai/kimi%/providers`);
    expect(brokenApi.status()).toBe(400);
    expect((await brokenApi.json()).error.message).toMatch(/malformed percent-escape/);
  });

  test("bad request bodies get a 400 naming the field, or a 413 when too big", async ({ request }) => {
    const cases: Array<[string, string | Buffer, number, RegExp]> = [
      ["unknown field", JSON.stringify({ models: ["x"] }), 400, /models/],
      ["not JSON", Buffer.from("{oops"), 400, /not valid JSON/],
      ["too big", Buffer.alloc(2048, "a"), 413, /over 1024 bytes/],
    ];
    for (const [what, data, status, message] of cases) {
      const response = await request.post("/api/poll", { data, headers: { "content-type": "application/json" } });
      expect(response.status(), what).toBe(status);
      expect((await response.json()).error.message, what).toMatch(message);
    }
  });

  test("changes from another origin are refused, same-origin ones pass", async ({ request, baseURL }) => {
    const evil = await request.post("/api/poll", { headers: { origin: "http://evil.example" } });
    expect(evil.status()).toBe(403);
    expect((await evil.json()).error.message).toContain("Origin http://evil.example");
    const crossSite = await request.post("/api/poll", { headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.status()).toBe(403);
    const action = await request.post("/", {
      headers: { origin: "http://evil.example", "next-action": "0123456789abcdef", "content-type": "text/plain" },
      data: "[]",
    });
    expect(action.status()).toBe(403);
    const same = await request.post("/api/poll", { headers: { origin: baseURL as string, "sec-fetch-site": "same-origin" } });
    expect(same.status()).toBe(200);
  });

  test("health answers without auth: database, last successful poll per model, scheduler", async ({ request }) => {
    await poll(request);
    const response = await request.get("/api/health");
    expect(response.status()).toBe(200);
    const health = await response.json();
    expect(health).toMatchObject({ ok: true, database: { reachable: true, engine: E2E_ENGINE }, scheduler: { running: false } });
    expect(health.models[0]).toMatchObject({ id: KIMI, lastPollOk: true });
    expect(health.models[0].lastSuccessAt).toEqual(expect.any(String));
  });
});
