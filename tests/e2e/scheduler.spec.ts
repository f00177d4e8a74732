import { expect, test } from "@playwright/test";
import { patchReplica } from "../../replica/server";
import { until } from "../helpers/poller-child";
import { startReceiver, takeSignedWebhooks, type Receiver } from "../helpers/webhook-receiver";
import { freshDatabase, type TestDatabase } from "./database";
import { startSecuredServer, type SecuredServer } from "./secured-server";

// The in-process scheduler of a running server (POLL_INTERVAL_SECONDS set; every other test server
// runs with it off): nobody calls /api/poll or presses "Send test" here. The server polls its
// replica by itself, and a price change it polls reaches a real webhook receiver as one signed
// delivery, sent by the server's own alert sender.

const KIMI = "moonshotai/kimi-k2.5";
const INTERVAL_SECONDS = 2;

let database: TestDatabase;
let server: SecuredServer;
let receiver: Receiver;
const settings = () => ({
  ...database.env,
  BASIC_AUTH: "",
  POLL_INTERVAL_SECONDS: String(INTERVAL_SECONDS),
  // A poll the crash below cuts short holds the model for 3 s, not the default.
  POLL_LEASE_SECONDS: "3",
  ALLOW_PRIVATE_WEBHOOKS: "true",
});
let secret = "";
let slug = "";

test.beforeAll(async () => {
  test.setTimeout(150_000); // a server of its own to start, on a shared machine
  [database, receiver] = await Promise.all([freshDatabase("scheduler"), startReceiver()]);
  server = await startSecuredServer(settings());
});
test.afterAll(async () => {
  await server?.stop();
  await Promise.all([receiver?.close(), database?.remove()]);
});

const api = async (path: string, init: { method?: string; data?: unknown } = {}) => {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json" },
    body: init.data === undefined ? undefined : JSON.stringify(init.data),
  });
  return { status: response.status, body: await response.json() };
};
const polled = () => server.replica.state.endpointCalls[KIMI] ?? 0;

test("with POLL_INTERVAL_SECONDS set the server polls by itself, and a polled price change is one signed webhook", async () => {
  // Polls by itself: the replica is asked again and again, and health says the scheduler ran them.
  await until("three scheduled polls", () => polled() >= 3, 20_000);
  const health = await api("/api/health");
  expect(health.body).toMatchObject({ scheduler: { running: true, intervalSeconds: INTERVAL_SECONDS } });
  expect(health.body.models[0]).toMatchObject({ id: KIMI, lastPollOk: true });
  expect(server.replica.state.requests.some((r) => r.path === "/api/v1/models/moonshotai/kimi-k2.5/endpoints")).toBe(true);

  // A saved view with alerts on, and a webhook channel at the receiver.
  const view = await api("/api/views", { method: "POST", data: { name: "Scheduled", modelId: KIMI, query: "" } });
  expect(view.status).toBe(201);
  const channel = await api("/api/alerts/channels", { method: "POST", data: { kind: "webhook", name: "Scheduled hook", url: `${receiver.url}/hook` } });
  expect(channel.status).toBe(201);
  secret = channel.body.secret;
  slug = view.body.slug;
  expect((await api(`/api/views/${view.body.slug}/alerts`, { method: "PUT", data: { enabled: true } })).status).toBe(200);
  // The first scheduled evaluation records the view's answer (and sends nothing).
  await until("the view's first evaluation", async () => (await api(`/api/views/${view.body.slug}/alerts`)).body.watching === true, 15_000);
  expect(receiver.received).toEqual([]);

  // DeepInfra's input price moves from $0.45 to $0.50 per million at the replica.
  await patchReplica(server.replica.url, {
    model: KIMI,
    tag: "deepinfra",
    set: { pricing: { prompt: "0.0000005", completion: "0.00000225", request: "0", image: "0", input_cache_read: "0.00000009", discount: 0 } },
  });
  await until("a delivery at the receiver", () => receiver.received.length > 0, 20_000);
  // Two more scheduled polls later (each wakes the sender when it writes): still the one delivery.
  const after = polled();
  await until("two more scheduled polls", () => polled() >= after + 2, 15_000);
  const [message, ...more] = takeSignedWebhooks(receiver, secret);
  expect(message).toMatchObject({
    schemaVersion: 1,
    kind: "endpoint",
    view: { slug: view.body.slug, name: "Scheduled" },
    model: KIMI,
    data: { tag: "deepinfra", change: "price", old: { inputPricePerM: "0.45" }, new: { inputPricePerM: "0.50" } },
  });
  expect(more).toEqual([]);
});

test("killed (SIGKILL) while the receiver hangs on a delivery, the restarted server delivers that event id once", async () => {
  // The sender's claim on a delivery lasts 60 s (lib/alerts/sender.ts): the restarted server sends
  // it again once the dead process's claim has expired, and not before.
  test.setTimeout(180_000); // a SIGKILL, a hanging receiver and a restart: 60 s in a CI run
  expect(secret).not.toBe(""); // the test above set up the view and the channel
  receiver.answer = () => "hang";
  await patchReplica(server.replica.url, {
    model: KIMI,
    tag: "deepinfra",
    set: { pricing: { prompt: "0.00000055", completion: "0.00000225", request: "0", image: "0", input_cache_read: "0.00000009", discount: 0 } },
  });
  await until("the delivery to reach the hanging receiver", () => receiver.received.length > 0, 20_000);
  const [hung] = takeSignedWebhooks(receiver, secret);
  expect(hung).toMatchObject({ kind: "endpoint", view: { slug }, data: { tag: "deepinfra", change: "price", new: { inputPricePerM: "0.55" } } });
  const killedAt = Date.now();
  await server.crash();

  receiver.answer = () => ({ status: 200, body: "ok" });
  server = await startSecuredServer(settings());
  // The new server's replica serves the recorded $0.45 again: that change is the next event. Wait
  // for both: the hung event again, and the new one, sent after it.
  await until(
    "the hung event again and the next one",
    () => receiver.received.some((r) => r.headers["x-routeboard-event-id"] === hung.eventId) && receiver.received.some((r) => r.body.includes('"inputPricePerM":"0.45"') && r.body.includes('"new"')),
    150_000, // the 60 s claim, a server start on a busy machine, and a sender round
  );
  const redeliveredAt = Date.now();
  expect(redeliveredAt - killedAt).toBeGreaterThanOrEqual(60_000);
  // Once the server has recorded that delivery as sent, no later round sends it again.
  await until(
    "the redelivery recorded as sent",
    async () => {
      const { deliveries } = (await api("/api/alerts/deliveries?limit=100")).body as { deliveries: Array<{ eventId: string; status: string }> };
      return deliveries.some((d) => d.eventId === hung.eventId && d.status === "sent");
    },
    15_000,
  );
  const messages = takeSignedWebhooks(receiver, secret);
  expect(messages.filter((m) => m.eventId === hung.eventId)).toHaveLength(1);
  expect(messages.find((m) => m.eventId === hung.eventId)).toMatchObject({ kind: hung.kind, view: hung.view, data: hung.data, summary: hung.summary });
});
