import { expect, test } from "@playwright/test";
import { expectNoStack, expectSecurityHeaders, poll, replicaControl } from "./helpers";

// Bad input to every route handler, over HTTP: a 400 whose message names the field (or a 404 /
// 413 / 422 that says what is wrong), the security headers on the error too, never a stack
// trace, and nothing already stored is lost.

const KIMI = "moonshotai/kimi-k2.5";
const API = `/api/models/${KIMI}`;
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
interface Case {
  method: Method;
  url: string;
  body?: unknown;
  status: number;
  message: RegExp;
}

const json = (value: unknown) => JSON.stringify(value);
const known = { tag: "fireworks", quantization: "fp8", note: "asked their support", recordedBy: "ana" };

const CASES: Case[] = [
  // Watched models
  { method: "POST", url: "/api/models", body: {}, status: 400, message: /^id: / },
  { method: "POST", url: "/api/models", body: { id: 5 }, status: 400, message: /^id: / },
  { method: "POST", url: "/api/models", body: "{oops", status: 400, message: /not valid JSON/ },
  { method: "DELETE", url: "/api/models/nobody/nothing", status: 404, message: /nobody\/nothing is not watched/ },
  { method: "DELETE", url: "/api/models/a/b%2Fc", status: 400, message: /model id must look like author\/slug/ },
  // Saved views
  { method: "GET", url: "/api/views", status: 400, message: /^model: / },
  { method: "POST", url: "/api/views", body: { name: "", modelId: KIMI, query: "" }, status: 400, message: /^name: give the view a name/ },
  { method: "POST", url: "/api/views", body: { name: "x", modelId: KIMI, query: 5 }, status: 400, message: /^query: / },
  { method: "POST", url: "/api/views", body: { name: "x", modelId: "nobody/nothing", query: "" }, status: 404, message: /not watched/ },
  { method: "PUT", url: "/api/views/abcdefgh", body: { name: 7 }, status: 400, message: /^name: / },
  { method: "PUT", url: "/api/views/no-such-view", body: { name: "x" }, status: 404, message: /no saved view "no-such-view"/ },
  { method: "DELETE", url: "/api/views/no-such-view", status: 404, message: /no saved view/ },
  { method: "GET", url: "/api/views/no-such-view/routing", status: 404, message: /no saved view "no-such-view"/ },
  // Team-known quantization
  { method: "PUT", url: `${API}/known-quantization`, body: { ...known, quantization: "fp5" }, status: 400, message: /^quantization: / },
  { method: "PUT", url: `${API}/known-quantization`, body: { ...known, note: "x" }, status: 400, message: /^note: say how you know/ },
  { method: "PUT", url: `${API}/known-quantization`, body: { ...known, recordedBy: " " }, status: 400, message: /^recordedBy: say who you are/ },
  { method: "PUT", url: "/api/models/nobody/nothing/known-quantization", body: known, status: 404, message: /not watched/ },
  { method: "DELETE", url: `${API}/known-quantization`, status: 400, message: /^tag: / },
  { method: "DELETE", url: `${API}/known-quantization?tag=nothing`, status: 404, message: /Nothing recorded for nothing/ },
  // History
  { method: "GET", url: `${API}/series`, status: 400, message: /^metric: / },
  { method: "GET", url: `${API}/series?metric=weather`, status: 400, message: /^metric: / },
  { method: "GET", url: `${API}/series?metric=uptime30m&range=1y`, status: 400, message: /^range: / },
  { method: "GET", url: `${API}/changes?limit=abc`, status: 400, message: /^limit: / },
  { method: "GET", url: `${API}/changes?before=-1`, status: 400, message: /^before: / },
  // Routing export: strict, since a pipeline acts on it unseen
  { method: "GET", url: `${API}/routing?xq=int4,bogus&upmin=abc`, status: 400, message: /could not be read: .*xq.*upmin|could not be read: .*upmin.*xq/ },
  { method: "GET", url: `${API}/routing?upmin=100`, status: 422, message: /No provider is included/ },
  { method: "GET", url: "/api/models/nobody/nothing/routing", status: 404, message: /not watched/ },
  // Poll trigger
  { method: "POST", url: "/api/poll", body: { models: ["x"] }, status: 400, message: /models/ },
  // Alert channels and deliveries
  { method: "POST", url: "/api/alerts/channels", body: { kind: "email", name: "x", url: "https://example.com/h" }, status: 400, message: /^kind: must be webhook or slack/ },
  { method: "POST", url: "/api/alerts/channels", body: { kind: "webhook", name: "x", url: "ftp://example.com/h" }, status: 400, message: /^url: must start with http:\/\/ or https:\/\// },
  { method: "POST", url: "/api/alerts/channels", body: { kind: "webhook", name: "x", url: "https://example.com/h", secret: "short" }, status: 400, message: /^secret: must be at least 16 characters/ },
  { method: "PATCH", url: "/api/alerts/channels/abc", body: { enabled: true }, status: 400, message: /^id: must be a channel number/ },
  { method: "PATCH", url: "/api/alerts/channels/999999", body: { enabled: "yes" }, status: 400, message: /^enabled: / },
  { method: "DELETE", url: "/api/alerts/channels/999999", status: 404, message: /There is no channel 999999/ },
  { method: "POST", url: "/api/alerts/channels/999999/test", status: 404, message: /There is no channel 999999/ },
  { method: "GET", url: "/api/alerts/deliveries?channel=x", status: 400, message: /^channel: must be a channel number/ },
];

test.describe("bad input to every route", () => {
  test.beforeEach(async ({ request }) => {
    await replicaControl(request, "reset");
    await poll(request);
  });

  test("each answers a clear error naming the field, with the security headers, and nothing stored is lost", async ({ request }) => {
    const before = await (await request.get(`${API}/providers`)).json();
    expect(before.endpoints).toHaveLength(11);
    const view = await request.post("/api/views", { data: { name: "kept", modelId: KIMI, query: "xq=int4" } });
    expect(view.status()).toBe(201);

    for (const c of CASES) {
      const what = `${c.method} ${c.url} ${c.body === undefined ? "" : typeof c.body === "string" ? c.body : json(c.body)}`;
      const response = await request.fetch(c.url, {
        method: c.method,
        ...(c.body === undefined ? {} : { data: typeof c.body === "string" ? Buffer.from(c.body) : json(c.body) }),
        headers: { "content-type": "application/json" },
      });
      const text = await response.text();
      expect(response.status(), what).toBe(c.status);
      expect(response.headers()["content-type"], what).toContain("application/json");
      expect(JSON.parse(text).error.message, what).toMatch(c.message);
      expectSecurityHeaders(response, what);
      expectNoStack(text, what);
    }

    const after = await (await request.get(`${API}/providers`)).json();
    expect(after).toEqual(before);
    const views = await (await request.get(`/api/views?model=${encodeURIComponent(KIMI)}`)).json();
    expect(views.views.map((v: { name: string }) => v.name)).toContain("kept");
  });

  test("every body over the limit is refused with 413 before it is read whole", async ({ request }) => {
    const huge = json({ name: "x".repeat(70 * 1024), modelId: KIMI, query: "" });
    const writes: Array<[Method, string]> = [
      ["POST", "/api/models"],
      ["POST", "/api/views"],
      ["PUT", "/api/views/abcdefgh"],
      ["PUT", `${API}/known-quantization`],
      ["POST", "/api/poll"],
    ];
    for (const [method, url] of writes) {
      const response = await request.fetch(url, { method, data: huge, headers: { "content-type": "application/json" } });
      expect(response.status(), `${method} ${url}`).toBe(413);
      expect((await response.json()).error.message, `${method} ${url}`).toMatch(/over \d+ bytes/);
    }
  });
});
