import { describe, expect, it } from "vitest";
import { z } from "zod";
import { guarded, modelParamsSchema, readJson, readParams, readQuery } from "@/lib/http";
import { basicAuthMatches, bearerMatches, parseBasicAuthSetting } from "@/lib/security/basic-auth";
import { contentSecurityPolicy } from "@/lib/security/headers";
import { internalRenderNonce, isSharedPageRequest, withoutInternalHeaders } from "@/lib/queries/shared-pages";
import { checkSameOrigin } from "@/lib/security/origin";
import { errorLine } from "@/lib/security/error-line";

const basic = (s: string) => `Basic ${Buffer.from(s).toString("base64")}`;

describe("Basic auth", () => {
  const creds = parseBasicAuthSetting("team:pa:ss");
  it("accepts exactly the configured user and password (a password may hold colons)", () => {
    expect(creds).toEqual({ user: "team", password: "pa:ss" });
    expect(basicAuthMatches(basic("team:pa:ss"), creds)).toBe(true);
    expect(basicAuthMatches(basic("team:pa"), creds)).toBe(false);
    expect(basicAuthMatches(basic("other:pa:ss"), creds)).toBe(false);
    expect(basicAuthMatches("Bearer team:pa:ss", creds)).toBe(false);
    expect(basicAuthMatches(null, creds)).toBe(false);
  });
  it("refuses a setting without a password", () => {
    expect(() => parseBasicAuthSetting("team:")).toThrow(/user:password/);
    expect(() => parseBasicAuthSetting("team")).toThrow(/user:password/);
  });
  it("checks a bearer secret", () => {
    expect(bearerMatches("Bearer s3cret", "s3cret")).toBe(true);
    expect(bearerMatches("Bearer s3cre", "s3cret")).toBe(false);
    expect(bearerMatches(null, "s3cret")).toBe(false);
  });
});

describe("same-origin check for changes", () => {
  const h = (o: Record<string, string>) => new Headers(o);
  it.each([
    ["GET from anywhere", "GET", { host: "a.test", origin: "http://evil.test" }, true],
    ["POST same origin", "POST", { host: "a.test:3000", origin: "http://a.test:3000", "sec-fetch-site": "same-origin" }, true],
    ["POST without Origin (curl, cron)", "POST", { host: "a.test" }, true],
    ["POST from another origin", "POST", { host: "a.test", origin: "http://evil.test" }, false],
    ["DELETE cross-site by Sec-Fetch-Site", "DELETE", { host: "a.test", "sec-fetch-site": "cross-site" }, false],
    ["PUT same-site but another origin", "PUT", { host: "a.test", "sec-fetch-site": "same-site" }, false],
    ["PATCH with Origin null", "PATCH", { host: "a.test", origin: "null" }, false],
    ["POST behind a proxy (X-Forwarded-Host)", "POST", { host: "internal:3000", "x-forwarded-host": "dash.example", origin: "https://dash.example" }, true],
  ] as const)("%s", (_name, method, headers, allowed) => {
    expect(checkSameOrigin(method, h(headers)).allowed).toBe(allowed);
  });
});

describe("Content-Security-Policy", () => {
  it("has no unsafe-eval in production, forbids framing, and carries the nonce", () => {
    const csp = contentSecurityPolicy("abc", { dev: false });
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("'nonce-abc'");
    expect(contentSecurityPolicy("abc", { dev: true })).toContain("'unsafe-eval'");
  });
});

describe("input helpers", () => {
  const schema = z.object({ name: z.string().min(1), count: z.number().int().max(10) });
  const post = (body: string, headers: Record<string, string> = {}) =>
    new Request("http://x.test/api", { method: "POST", body, headers });
  const message = async (r: Response) => ((await r.json()) as { error: { message: string } }).error.message;

  it("answers 400 naming the field", async () => {
    const result = await readJson(post(JSON.stringify({ name: "a", count: 11 })), schema);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.response.status).toBe(400);
    expect(await message(result.response)).toMatch(/^count: /);
  });
  it("answers 400 for a body that is not JSON, or empty", async () => {
    for (const body of ["{oops", ""]) {
      const result = await readJson(post(body), schema);
      expect(result.ok ? 200 : result.response.status).toBe(400);
    }
  });
  it("refuses a body over the limit with 413, declared or not", async () => {
    const big = JSON.stringify({ name: "x".repeat(5000), count: 1 });
    const declared = await readJson(post(big), schema, { maxBytes: 1000 });
    expect(declared.ok ? 200 : declared.response.status).toBe(413);
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode("x".repeat(500)));
        c.close();
      },
    });
    const chunked = new Request("http://x.test/api", { method: "POST", body: stream, duplex: "half" } as RequestInit);
    const undeclared = await readJson(chunked, schema, { maxBytes: 1000 });
    expect(undeclared.ok ? 200 : undeclared.response.status).toBe(413);
  });
  it("accepts a valid body, and an empty one when told what it stands for", async () => {
    expect(await readJson(post(JSON.stringify({ name: "a", count: 2 })), schema)).toEqual({ ok: true, data: { name: "a", count: 2 } });
    expect(await readJson(post(""), z.object({}).strict(), { emptyAs: {} })).toEqual({ ok: true, data: {} });
  });
  it("validates the query string", () => {
    const r = readQuery(new Request("http://x.test/api?days=abc"), z.object({ days: z.coerce.number().int() }));
    expect(r.ok).toBe(false);
  });
  it.each([
    [{ author: "moonshotai", slug: "kimi-k2.5" }, "moonshotai/kimi-k2.5"],
    [{ author: "moonshotai", slug: "kimi-k2.5%3Anitro" }, "moonshotai/kimi-k2.5"],
    [{ author: "..", slug: "etc" }, null],
    [{ author: "a", slug: "b%2Fc" }, null],
    [{ author: "a", slug: "..%2F..%2Fpasswd" }, null],
    [{ author: "%E0%A4%A", slug: "x" }, null],
    [{ author: "a".repeat(101), slug: "x" }, null],
    [{ author: "a", slug: "b\u0000" }, null],
  ])("model params %j → %s", (params, expected) => {
    const r = readParams(params, modelParamsSchema);
    expect(r.ok ? r.data : null).toBe(expected);
  });
  it("turns an unexpected error into a short 500, and a lost database into a 503, without a stack", async () => {
    const boom = guarded(async () => {
      throw new Error("kaboom at /secret/path.ts:12");
    });
    const down = guarded(async () => {
      throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
    });
    const a = await boom();
    expect(a.status).toBe(500);
    expect(await a.text()).not.toContain("kaboom");
    expect((await down()).status).toBe(503);
  });
});

describe("shared page renders", () => {
  const page = "http://127.0.0.1:3000/models/moonshotai/kimi-k2.5?xq=int4";
  const html = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
  const shared = (init: RequestInit = {}) => isSharedPageRequest(new Request(page, init));
  it("shares page loads only: not what Next.js's client router or a server action fetches", () => {
    expect(shared({ headers: { accept: html, "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" } })).toBe(true);
    expect(shared({ headers: { accept: html } })).toBe(true); // a client without Fetch Metadata asking for HTML
    // The router's RSC fetch, as the proxy sees it (Next.js strips the RSC headers before the proxy runs).
    expect(shared({ headers: { accept: "*/*", "sec-fetch-dest": "empty", "sec-fetch-mode": "cors" } })).toBe(false);
    expect(shared({ headers: { accept: "*/*" } })).toBe(false);
    expect(shared()).toBe(false);
    expect(shared({ headers: { accept: html, "sec-fetch-dest": "empty" } })).toBe(false);
    expect(shared({ headers: { accept: html, "sec-fetch-dest": "iframe" } })).toBe(false);
    expect(shared({ headers: { accept: html, "next-url": "/models" } })).toBe(false);
    expect(shared({ method: "POST", headers: { accept: html, "next-action": "00ab" }, body: "[]" })).toBe(false);
    expect(shared({ method: "HEAD", headers: { accept: html } })).toBe(false);
  });
  it("takes the loopback render's nonce only on a GET with this process's secret, and hides both headers from the render", () => {
    const asked = (headers: Record<string, string>, method = "GET") => internalRenderNonce(new Request(page, { method, headers }));
    const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
    expect(asked({ "x-routeboard-render-nonce": nonce })).toBeNull();
    expect(asked({ "x-routeboard-render-secret": "guess", "x-routeboard-render-nonce": nonce })).toBeNull();
    expect(asked({ "x-routeboard-render-secret": "", "x-routeboard-render-nonce": nonce })).toBeNull();
    expect(asked({ "x-routeboard-render-secret": "guess", "x-routeboard-render-nonce": nonce }, "POST")).toBeNull();
    const forwarded = withoutInternalHeaders(new Headers({ "x-routeboard-render-secret": "s", "x-routeboard-render-nonce": nonce, accept: "text/html" }));
    expect([...forwarded.keys()]).toEqual(["accept"]);
  });
});

describe("errors shown on a page or to a monitor", () => {
  it("are one line, with no stack frame or connection string, cut to the length asked", () => {
    const prisma = new Error("\nInvalid `prisma.usageRecord.updateMany()` invocation:\n\n  Can't reach database server at postgresql://team:s3cret@db.internal:5432/routeboard?schema=public\n  Please make sure it runs.");
    const line = errorLine(prisma, 300);
    expect(line).toBe("Invalid `prisma.usageRecord.updateMany()` invocation: Can't reach database server at postgresql://… Please make sure it runs.");
    expect(errorLine(prisma, 20)).toBe("Invalid `prisma.usag");
    expect(errorLine("postgres://u:p@h/db down", 100)).toBe("postgresql://… down");
    expect(errorLine(new Error("connect ECONNREFUSED\n    at Socket.connect (node:net:1)\n    at stack"), 100)).toBe("connect ECONNREFUSED");
  });
});
