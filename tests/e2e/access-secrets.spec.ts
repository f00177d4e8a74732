import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { screenshot } from "./helpers";
import { BASIC_PASSWORD, BASIC_USER, CRON_SECRET, FAKE_KEY, FAKE_MANAGEMENT_KEY, startSecuredServer, type SecuredServer } from "./secured-server";

// Access (BASIC_AUTH, CRON_SECRET) and secrets (the OpenRouter key never leaves the server), on a
// server of their own started with both set and a known fake key.

const KIMI = "moonshotai/kimi-k2.5";
const basic = `Basic ${Buffer.from(`${BASIC_USER}:${BASIC_PASSWORD}`).toString("base64")}`;

test.describe.configure({ mode: "serial" });

let server: SecuredServer;
const seen: Array<{ what: string; text: string }> = [];

test.beforeAll(async () => {
  test.setTimeout(180_000); // a server of its own to start, on a shared machine
  server = await startSecuredServer({ OPENROUTER_MANAGEMENT_KEY: FAKE_MANAGEMENT_KEY });
});
test.afterAll(async () => {
  await server?.stop();
});

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${url}`, { headers, redirect: "manual" });
  const text = await response.text();
  const headerText = [...response.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
  seen.push({ what: `GET ${url}`, text: `${headerText}\n\n${text}` });
  return { status: response.status, text, headers: response.headers };
}

async function send(method: string, url: string, headers: Record<string, string> = {}, body?: string) {
  const response = await fetch(`${server.url}${url}`, { method, headers, body });
  const text = await response.text();
  const headerText = [...response.headers].map(([k, v]) => `${k}: ${v}`).join("\n");
  seen.push({ what: `${method} ${url}`, text: `${headerText}\n\n${text}` });
  return { status: response.status, text, headers: response.headers };
}

const post = (url: string, headers: Record<string, string> = {}, body?: string) => send("POST", url, headers, body);

function expectHeaders(headers: Headers, what: string) {
  expect(headers.get("content-security-policy"), what).toContain("frame-ancestors 'none'");
  expect(headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(headers.get("referrer-policy"), what).toBe("strict-origin-when-cross-origin");
}

test("BASIC_AUTH protects every page and API route but /api/health", async () => {
  for (const url of ["/", `/models/${KIMI}`, "/api/models", `/api/models/${KIMI}/providers`, "/models/nobody/nothing", "/anything"]) {
    const anonymous = await get(url);
    expect(anonymous.status, url).toBe(401);
    expect(anonymous.headers.get("www-authenticate"), url).toContain("Basic");
    expect(anonymous.headers.get("content-security-policy"), url).toContain("frame-ancestors 'none'");
    const wrong = await get(url, { authorization: `Basic ${Buffer.from(`${BASIC_USER}:nope`).toString("base64")}` });
    expect(wrong.status, url).toBe(401);
  }
  expect((await get("/", { authorization: basic })).status).toBe(200);
  expect((await get("/api/models", { authorization: basic })).status).toBe(200);
  // A page render shared between viewers goes to signed-in viewers only, and the loopback render's
  // header cannot be forged to get past the login.
  const accept = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8";
  const signedIn = await get(`/models/${KIMI}`, { authorization: basic, accept });
  expect(signedIn.status).toBe(200);
  expect(signedIn.headers.get("x-routeboard-shared-render")).toMatch(/^[0-9a-f]{8}$/);
  const after = await get(`/models/${KIMI}`, { accept });
  expect(after.status).toBe(401);
  expect(JSON.parse(after.text)).toEqual({ error: { status: 401, message: "Authentication required" } });
  const internal = { "x-routeboard-render-secret": "guess", "x-routeboard-render-nonce": "A".repeat(48) };
  expect((await get(`/models/${KIMI}`, { accept, ...internal })).status).toBe(401);
  expect((await post(`/models/${KIMI}`, { ...internal, "next-action": "00ab", "content-type": "text/plain" }, "[]")).status).toBe(401);
  // The internal headers never come back out, in any answer.
  for (const answer of [signedIn, after]) {
    for (const name of answer.headers.keys()) expect(name).not.toMatch(/^x-routeboard-render-|^x-middleware-/);
  }
  const health = await get("/api/health");
  expect(health.status).toBe(200);
  expect(JSON.parse(health.text).database.reachable).toBe(true);
});

test("the build's static files carry the security headers (from next.config.mjs, which the proxy skips)", async () => {
  const page = await get("/", { authorization: basic });
  const script = page.text.match(/\/_next\/static\/[^"']+\.js/)?.[0];
  expect(script, "a script of the build on the home page").toBeTruthy();
  const file = await get(script!, { authorization: basic });
  expect(file.status).toBe(200);
  expectHeaders(file.headers, script!);
  expect(file.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(file.headers.get("x-frame-options")).toBe("DENY");
});

test("every change is refused to anonymous callers (401) and to other origins (403), and nothing changes", async () => {
  const json = { "content-type": "application/json" };
  const known = JSON.stringify({ tag: "fireworks", quantization: "fp8", note: "asked support", recordedBy: "ana" });
  const writes: Array<[string, string, string | undefined]> = [
    ["POST", "/api/models", JSON.stringify({ id: "z-ai/glm-5" })],
    ["DELETE", `/api/models/${KIMI}`, undefined],
    ["POST", "/api/views", JSON.stringify({ name: "v", modelId: KIMI, query: "" })],
    ["PUT", "/api/views/abcdefgh", JSON.stringify({ name: "v" })],
    ["DELETE", "/api/views/abcdefgh", undefined],
    ["PUT", `/api/models/${KIMI}/known-quantization`, known],
    ["DELETE", `/api/models/${KIMI}/known-quantization?tag=fireworks`, undefined],
    ["POST", "/api/usage", '{"provider":"Venice","input_tokens":1,"output_tokens":1}'],
    ["POST", "/api/poll", undefined],
    ["POST", "/api/alerts/channels", JSON.stringify({ kind: "webhook", name: "w", url: "https://example.com/hook" })],
    ["PATCH", "/api/alerts/channels/1", JSON.stringify({ enabled: false })],
    ["DELETE", "/api/alerts/channels/1", undefined],
    ["POST", "/api/alerts/channels/1/test", undefined],
  ];
  for (const [method, url, body] of writes) {
    const what = `${method} ${url}`;
    const anonymous = await send(method, url, json, body);
    expect(anonymous.status, what).toBe(401);
    expectHeaders(anonymous.headers, what);
    const foreigners: Array<Record<string, string>> = [{ origin: "http://evil.example" }, { "sec-fetch-site": "cross-site" }];
    for (const foreign of foreigners) {
      const refused = await send(method, url, { ...json, authorization: basic, ...foreign }, body);
      expect(refused.status, `${what} ${JSON.stringify(foreign)}`).toBe(403);
      expect(JSON.parse(refused.text).error.message).toMatch(/Changes are accepted from this site only/);
      expectHeaders(refused.headers, what);
    }
  }
  const models = JSON.parse((await get("/api/models", { authorization: basic })).text).models;
  expect(models.map((m: { id: string }) => m.id)).toEqual([KIMI]);
  const known2 = JSON.parse((await get(`/api/models/${KIMI}/known-quantization`, { authorization: basic })).text).known;
  expect(known2).toEqual([]);
  expect(JSON.parse((await get("/api/alerts/channels", { authorization: basic })).text).channels).toEqual([]);
});

test("CRON_SECRET protects the poll trigger; a cron needs no Basic credentials", async () => {
  expect((await post("/api/poll")).status).toBe(401);
  expect((await post("/api/poll", { authorization: basic })).status).toBe(401); // logged in, but no secret
  expect((await post("/api/poll", { authorization: "Bearer wrong" })).status).toBe(401);
  const cron = await post("/api/poll", { authorization: `Bearer ${CRON_SECRET}` });
  expect(cron.status).toBe(200);
  expect(JSON.parse(cron.text).models[0]).toMatchObject({ id: KIMI, ok: true });
  // ...and the secret opens nothing else.
  expect((await get("/api/models", { authorization: `Bearer ${CRON_SECRET}` })).status).toBe(401);
});

test("a signed-in browser sees the pages under the CSP and can poll; a server action from another origin is refused", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.url, httpCredentials: { username: BASIC_USER, password: BASIC_PASSWORD } });
  const page = await context.newPage();
  const cspErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  await page.goto(`/models/${KIMI}`);
  await expect(page.getByRole("table", { name: "Providers" })).toBeVisible();
  await page.getByRole("button", { name: "Poll now" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Polled 1 model" })).toBeVisible();
  seen.push({ what: "model page as rendered", text: await page.content() });
  await screenshot(page, "trust-signed-in");
  expect(cspErrors).toEqual([]);
  await context.close();

  const forged = await post("/", { authorization: basic, origin: "http://evil.example", "next-action": "00ab", "content-type": "text/plain" }, "[]");
  expect(forged.status).toBe(403);
});

test("the OpenRouter key and the management key are in no client bundle, page, API response, error or log line", async () => {
  // Exercise the error paths too: OpenRouter refusing the key, a failed poll shown on the pages.
  await fetch(`${server.replica.url}/__replica/fault`, { method: "POST", body: JSON.stringify({ kind: "401", times: 5 }) });
  await post("/api/poll", { authorization: `Bearer ${CRON_SECRET}` });
  for (const url of ["/", `/models/${KIMI}`, "/api/models", `/api/models/${KIMI}/providers`, "/api/health", "/models/x/..%2F", "/nothing"]) {
    await get(url, { authorization: basic });
  }
  // The management key's pages and answers, working and failing.
  for (const url of ["/spend", "/api/budget"]) await get(url, { authorization: basic });
  await fetch(`${server.replica.url}/__replica/fault`, { method: "POST", body: JSON.stringify({ kind: "401", path: "/keys", times: 10 }) });
  for (const url of ["/spend", "/api/budget"]) await get(url, { authorization: basic });
  // Both keys did reach OpenRouter (the replica), so the search below is not vacuous.
  expect(server.replica.state.requests.some((r) => r.authorized && r.path.startsWith("/api/v1/models"))).toBe(true);
  expect(server.replica.state.requests.some((r) => r.authorized && (r.path === "/api/v1/activity" || r.path.startsWith("/api/v1/keys")))).toBe(true);

  for (const secret of [FAKE_KEY, FAKE_MANAGEMENT_KEY]) {
    const leaks = seen.filter((s) => s.text.includes(secret)).map((s) => s.what);
    expect(leaks, `responses containing ${secret.slice(0, 14)}…`).toEqual([]);
    expect(server.logs().includes(secret), "server log contains a key").toBe(false);
  }
  expect(server.logs().length).toBeGreaterThan(0);

  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(path.resolve(".next/static"));
  expect(files.length).toBeGreaterThan(5);
  const bundled = files.filter((f) => readFileSync(f).includes(FAKE_KEY) || readFileSync(f).includes(FAKE_MANAGEMENT_KEY));
  expect(bundled, "client files containing the key").toEqual([]);
});
