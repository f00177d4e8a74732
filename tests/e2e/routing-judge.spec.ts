import { readdirSync, readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { poll, REPLICA_URL, replicaControl } from "./helpers";
import { BUILT_VIEWS } from "./views";

// The routing export judged by a router that does not share its code: for every view the browser
// tests build (views.ts), the page's routing JSON (what Copy JSON copies) is sent, as a pipeline
// would send it, in chat requests to the replica, whose router follows OpenRouter's documented
// `provider` semantics (replica/routing.ts, no import from lib/). The answers' `provider` field
// says who served. Every endpoint the replica lists is tried with the exported object plus
// `order: [its tag]` (fallbacks stay off, as exported): it must be served exactly when the view
// includes it. The exported object as it is must be served by included endpoints only.

type Endpoint = { tag: string; provider_name: string };
type ChatAnswer = { provider?: string; error?: { code: number; message: string } };

async function chat(request: APIRequestContext, model: string, provider: Record<string, unknown>) {
  const response = await request.post(`${REPLICA_URL}/api/v1/chat/completions`, {
    data: { model, messages: [{ role: "user", content: "Which provider answers?" }], max_tokens: 1, provider },
  });
  return { status: response.status(), body: (await response.json()) as ChatAnswer };
}

/** The endpoint the replica says served its last chat answer. */
async function lastServedTag(request: APIRequestContext): Promise<string> {
  const state: { chatCalls: Array<{ servedTag: string }> } = await (await request.get(`${REPLICA_URL}/__replica/state`)).json();
  return state.chatCalls[state.chatCalls.length - 1].servedTag;
}

test.describe("routing export judged by the replica's router", () => {
  test.beforeAll(async ({ request }) => {
    await replicaControl(request, "reset");
    // Novita's recorded quirk answers every third request from DeepInfra whatever the preferences
    // say (a router fault the probe must catch); the judge needs a router that keeps to them.
    expect((await request.post(`${REPLICA_URL}/__replica/behaviour`, { data: { tag: "novita", fallback: null } })).ok()).toBe(true);
    await poll(request);
  });
  test.afterAll(async ({ request }) => replicaControl(request, "reset"));

  test("the list of built views holds every model-page link in the browser tests", () => {
    const linked = new Set<string>();
    for (const file of readdirSync("tests/e2e").filter((f) => f.endsWith(".spec.ts") && f !== "routing-judge.spec.ts")) {
      const source = readFileSync(`tests/e2e/${file}`, "utf8");
      const patterns = [/(?:kimi-k2\.5|\$\{KIMI\}|\$\{MODEL_PAGE\})\?([^`"'#\s)]+)/g, /query: "([^"]+)"/g, /(?:PRECISION|INCLUDED) = "([^"?]+=[^"]*)"/g];
      for (const pattern of patterns) for (const m of source.matchAll(pattern)) if (!m[1].includes("${")) linked.add(m[1]);
    }
    expect(linked.size).toBeGreaterThan(10);
    const listed = new Set(BUILT_VIEWS.map((v) => v.query));
    expect([...linked].filter((q) => !listed.has(q)), "views linked from a spec but missing from views.ts").toEqual([]);
  });

  for (const view of BUILT_VIEWS) {
    const title =
      view.routing === 200
        ? `view "${view.query || "(default)"}": its export reaches exactly the included endpoints`
        : `view "${view.query}": the routing API answers ${view.routing}, so there is no export to send`;
    test(title, async ({ page, request }) => {
      const routingResponse = await request.get(`/api/models/${view.model}/routing?${view.query}`);
      expect(routingResponse.status()).toBe(view.routing);
      if (view.routing !== 200) return;
      const routing: { provider: Record<string, unknown>; included: string[] } = await routingResponse.json();
      expect(routing.included.length).toBeGreaterThan(0);

      // What Copy JSON copies is the page's JSON: the same object as the API's.
      await page.goto(`/models/${view.model}?${view.query}`);
      const shown = JSON.parse((await page.getByLabel("Routing preferences JSON").textContent()) ?? "null");
      expect(shown).toEqual({ provider: routing.provider });

      const listed: { data: { endpoints: Endpoint[] } } = await (await request.get(`${REPLICA_URL}/api/v1/models/${view.model}/endpoints`)).json();
      const endpoints = listed.data.endpoints;
      expect(endpoints.map((e) => e.tag)).toEqual(expect.arrayContaining(routing.included));

      // Each endpoint, put first in `order`: served exactly when included.
      const reached: string[] = [];
      for (const endpoint of endpoints) {
        const answer = await chat(request, view.model, { ...shown.provider, order: [endpoint.tag] });
        if (answer.status === 200) {
          expect(answer.body.provider, endpoint.tag).toBe(endpoint.provider_name);
          expect(await lastServedTag(request)).toBe(endpoint.tag);
          reached.push(endpoint.tag);
        } else {
          expect(answer, endpoint.tag).toEqual({ status: 404, body: { error: { code: 404, message: "No endpoints found that match your provider routing preferences" } } });
        }
      }
      expect(reached.sort()).toEqual([...routing.included].sort());

      // The export as it is: every answer from an included endpoint.
      const includedNames = endpoints.filter((e) => routing.included.includes(e.tag)).map((e) => e.provider_name);
      for (let i = 0; i < 12; i++) {
        const answer = await chat(request, view.model, shown.provider);
        expect(answer.status).toBe(200);
        expect(includedNames).toContain(answer.body.provider);
        expect(routing.included).toContain(await lastServedTag(request));
      }
    });
  }
});
