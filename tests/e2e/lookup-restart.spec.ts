import { expect, test } from "@playwright/test";
import { injectFault, startReplica, type Replica } from "../../replica/server";
import { until } from "../helpers/poller-child";
import { freshDatabase, type TestDatabase } from "./database";
import { startSecuredServer, type SecuredServer } from "./secured-server";

// Issue 21, item 4, across a real restart: the server looks up id-only usage records in the
// replica's /generation, paced; it is killed (SIGKILL) while a lookup hangs at OpenRouter, then
// started again on the same database and the same replica. The second server finishes the
// lookups, and the replica's own counts show that no id already answered was asked again.

let database: TestDatabase;
let replica: Replica;
let servers: SecuredServer[] = [];
test.beforeAll(async () => {
  [database, replica] = await Promise.all([freshDatabase("lookup-restart"), startReplica(0)]);
});
test.afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => undefined);
  await Promise.all([database?.remove(), replica?.close()]);
});

test("lookups resume after the server is killed mid-way, without asking an answered id again", async () => {
  test.setTimeout(120_000); // a server killed and started again: 36 s in a CI run
  // The pipeline's calls, straight to the replica; it kept only the ids.
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await fetch(`${replica.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer restart-pipeline", "content-type": "application/json" },
      body: JSON.stringify({ model: "moonshotai/kimi-k2.5", messages: [{ role: "user", content: `Restart sample ${i}` }], max_tokens: 4 }),
    });
    ids.push(((await res.json()) as { id: string }).id);
  }
  // One lookup every 4 s, a 2 s timeout (so a lease of 17 s).
  const settings = { ...database.env, BASIC_AUTH: "", OPENROUTER_BASE_URL: replica.baseUrl, GENERATION_LOOKUPS_PER_SECOND: "0.25", OPENROUTER_TIMEOUT_SECONDS: "2" };
  const first = await startSecuredServer(settings);
  servers.push(first);
  const imported = await fetch(`${first.url}/api/usage?filename=ids.jsonl`, {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: ids.map((id) => JSON.stringify({ id, dataset: "RESTART" })).join("\n"),
  });
  expect(await imported.json()).toMatchObject({ accepted: 5, awaitingLookup: 5 });

  const answered = () => ids.filter((id) => replica.state.generation.answered[id] === 1).length;
  const asked = () => replica.state.requests.filter((r) => r.path === "/api/v1/generation").length;
  await until("two lookups answered", () => answered() >= 2, 60_000);
  // The next lookup hangs at OpenRouter, and the server dies while it waits.
  await injectFault(replica.url, { kind: "hang", path: "/generation", times: 1 });
  expect(answered()).toBe(2);
  await until("the third lookup to reach OpenRouter", () => asked() >= 3, 30_000);
  servers = servers.filter((s) => s !== first);
  await first.crash();
  const answeredBefore = ids.filter((id) => replica.state.generation.answered[id] === 1);
  expect(answeredBefore).toHaveLength(2);

  const second = await startSecuredServer(settings);
  servers.push(second);
  await until("the restarted server's database", () => fetch(`${second.url}/api/health`).then((r) => r.status === 200, () => false), 45_000);
  const judged = async () => Promise.all(ids.map(async (id) => (await (await fetch(`${second.url}/api/provenance?id=${id}`)).json()) as { provider: string | null; class: string }));
  await until("every record looked up and judged", async () => (await judged()).every((j) => j.class !== "awaiting"), 120_000);
  for (const [i, one] of (await judged()).entries()) {
    expect({ id: ids[i], provider: one.provider, class: one.class }).toEqual({ id: ids[i], provider: expect.any(String), class: "unverified" });
  }
  // Each id answered exactly once: the two answered before the kill were never asked again.
  expect(Object.fromEntries(ids.map((id) => [id, replica.state.generation.answered[id]]))).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
  for (const id of answeredBefore) expect(replica.state.generation.lookups[id]).toBe(1);
  servers = servers.filter((s) => s !== second);
  await second.stop();
});
