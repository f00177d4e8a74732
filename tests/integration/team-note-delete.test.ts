import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE, GET, PUT } from "@/app/api/models/[author]/[slug]/known-quantization/route";
import type { OpenedDb } from "@/lib/db/engines";
import { seedWatchedModels } from "@/lib/watched-models";
import { engines } from "../helpers/db";

// The team-note API (known quantization) called as Next calls it: the route module's handlers with
// a real Request, on a real database of each engine (the process's database is the scratch one).
const KIMI = "moonshotai/kimi-k2.5";
const URL_ = "http://localhost/api/models/moonshotai/kimi-k2.5/known-quantization";
const context = () => ({ params: Promise.resolve({ author: "moonshotai", slug: "kimi-k2.5" }) });
const holder = globalThis as unknown as { __routeboardDb?: Promise<OpenedDb> };

const note = (tag: string) => ({ tag, quantization: "fp8", note: "the provider's docs say fp8", recordedBy: "Ana" });

async function call(
  handler: (request: Request, ctx: ReturnType<typeof context>) => Promise<Response>,
  method: string,
  { body, query = "" }: { body?: string; query?: string } = {},
): Promise<{ status: number; json: { error?: { message: string }; known?: { tag: string }[]; deleted?: string } }> {
  const request = new Request(URL_ + query, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body,
  });
  const response = await handler(request, context());
  return { status: response.status, json: await response.json() };
}

const storedTags = async () => ((await call(GET, "GET")).json.known ?? []).map((k) => k.tag);

describe.each(engines)("deleting a team note on $name PostgreSQL", (engine) => {
  let opened: OpenedDb;

  beforeAll(async () => {
    opened = await engine.open();
    await seedWatchedModels(opened.db, [KIMI]);
    holder.__routeboardDb = Promise.resolve(opened);
  });
  afterAll(async () => {
    holder.__routeboardDb = undefined;
    await opened?.close();
  });

  it("a JSON body names the note to delete; the other notes stay", async () => {
    for (const tag of ["fireworks", "together"]) {
      expect((await call(PUT, "PUT", { body: JSON.stringify(note(tag)) })).status).toBe(200);
    }
    expect(await storedTags()).toEqual(["fireworks", "together"]);

    const deleted = await call(DELETE, "DELETE", { body: JSON.stringify({ tag: "fireworks" }) });
    expect(deleted).toEqual({ status: 200, json: { deleted: "fireworks" } });
    expect(await storedTags()).toEqual(["together"]);
  });

  it("bad input gets a 400 naming the field, and nothing is deleted", async () => {
    const bad: { body?: string; query?: string; message: RegExp }[] = [
      { body: "{}", message: /^tag: name the endpoint whose note to delete/ },
      { body: JSON.stringify({ tag: 5 }), message: /^tag: name the endpoint whose note to delete/ },
      { body: JSON.stringify({ tag: "   " }), message: /^tag: name the endpoint whose note to delete/ },
      { body: JSON.stringify({ tag: "x".repeat(101) }), message: /^tag: / },
      { body: "[]", message: /expected object/ },
      { body: '{"tag": "together"', message: /^The request body is not valid JSON$/ },
      { body: JSON.stringify({ tag: "together" }), query: "?tag=fireworks", message: /^tag: the body names "together" but the query names "fireworks"/ },
      { message: /^tag: name the endpoint whose note to delete/ },
    ];
    for (const { message, ...input } of bad) {
      const answer = await call(DELETE, "DELETE", input);
      expect({ input, status: answer.status }).toEqual({ input, status: 400 });
      expect(answer.json.error?.message).toMatch(message);
    }
    expect(await storedTags()).toEqual(["together"]);
  });

  it("a tag with nothing recorded is a 404; the query form still deletes", async () => {
    const missing = await call(DELETE, "DELETE", { body: JSON.stringify({ tag: "fireworks" }) });
    expect(missing.status).toBe(404);
    expect(missing.json.error?.message).toBe("Nothing recorded for fireworks");

    expect(await call(DELETE, "DELETE", { query: "?tag=together" })).toEqual({ status: 200, json: { deleted: "together" } });
    expect(await storedTags()).toEqual([]);
  });
});
