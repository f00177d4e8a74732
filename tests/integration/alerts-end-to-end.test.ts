import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChannel } from "@/lib/alerts/channels/store";
import { sendDueDeliveries, type SenderOptions } from "@/lib/alerts/sender";
import { putViewAlert } from "@/lib/alerts/view-settings";
import type { OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { createView } from "@/lib/saved-views";
import { seedWatchedModels } from "@/lib/watched-models";
import { patchReplica, startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";
import { startReceiver, takeSignedWebhooks, type Receiver, type ReceivedWebhook } from "../helpers/webhook-receiver";

// Issue 12 end to end: a change in the replica's data, polled by the real client, becomes one
// event in the snapshot's transaction and one signed webhook delivery at a real HTTP receiver.
// The receiver is on 127.0.0.1, so the address guard is lifted (as ALLOW_PRIVATE_WEBHOOKS=true).

const KIMI = "moonshotai/kimi-k2.5";
const SENDER: SenderOptions = { allowPrivate: true, baseUrl: "https://routeboard.example", baseDelayMs: 20, maxDelayMs: 200 };

describe.each(engines)("poll → event → signed delivery on the $name engine", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  let receiver: Receiver;
  let secret: string;
  let slug: string;

  const poll = async () => {
    const client = createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 2000, baseDelayMs: 5, maxAttempts: 2 });
    const result = await runPollCycle(opened.db, client, { trigger: "test" });
    expect(result.models[0].ok).toBe(true);
  };
  const set = (tag: string, fields: Record<string, unknown>) => patchReplica(replica.url, { model: KIMI, tag, set: fields });
  /** Runs the sender, then hands over what the receiver got since the last call, each signature checked. */
  const delivered = async (): Promise<ReceivedWebhook[]> => {
    await sendDueDeliveries(opened.db, SENDER);
    return takeSignedWebhooks(receiver, secret);
  };

  beforeAll(async () => {
    [opened, replica, receiver] = await Promise.all([engine.open(), startReplica(), startReceiver()]);
    await seedWatchedModels(opened.db, [KIMI]);
    await poll();
    slug = (await createView(opened.db, { name: "Pipeline", modelId: KIMI, query: "" })).slug;
    const created = await createChannel(opened.db, { kind: "webhook", name: "Team hook", url: `${receiver.url}/hook` }, { allowPrivate: true });
    secret = created.secret as string;
    await putViewAlert(opened.db, slug, { enabled: true });
    await poll(); // the first evaluation records the view's answer and says nothing
    expect(await delivered()).toEqual([]);
  });
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close(), receiver?.close()]);
  });

  it("a price change is one delivery with the exact old and new prices and a valid signature", async () => {
    await set("deepinfra", { pricing: { prompt: "0.0000005", completion: "0.00000225", request: "0", image: "0", input_cache_read: "0.00000009", discount: 0 } });
    await poll();
    const [message, ...more] = await delivered();
    expect(more).toEqual([]);
    expect(message).toMatchObject({
      schemaVersion: 1,
      kind: "endpoint",
      view: { slug, name: "Pipeline", url: `https://routeboard.example/v/${slug}` },
      model: KIMI,
      data: { tag: "deepinfra", change: "price", old: { inputPricePerM: "0.45" }, new: { inputPricePerM: "0.50" } },
    });
    expect(message.summary).toContain("0.45 / 2.25 → 0.50 / 2.25");
    await poll();
    expect(await delivered()).toEqual([]); // nothing changed: nothing sent
  });

  it("a quantization change is one delivery", async () => {
    await set("together", { quantization: "fp8" });
    await poll();
    const messages = await delivered();
    expect(messages.map((m) => [m.kind, m.data.tag, m.data.old, m.data.new])).toEqual([["endpoint", "together", "unknown", "fp8"]]);
  });

  it("an uptime dip is one delivery after two polls below, and one 'recovered' after two above", async () => {
    await set("fireworks", { uptime_last_30m: 61.5 });
    await poll();
    expect(await delivered()).toEqual([]);
    await poll();
    const down = await delivered();
    expect(down.map((m) => [m.kind, m.data.tag])).toEqual([["uptime-down", "fireworks"]]);
    await poll();
    expect(await delivered()).toEqual([]);
    await set("fireworks", { uptime_last_30m: 99.2 });
    await poll();
    await poll();
    expect((await delivered()).map((m) => m.kind)).toEqual(["uptime-recovered"]);
  });

  it("every event reached the channel once, in order, and the delivery history says sent", async () => {
    const rows = await opened.db.alertDelivery.findMany({ include: { event: true }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.event.kind, r.status, r.attempts])).toEqual([
      ["endpoint", "sent", 1],
      ["endpoint", "sent", 1],
      ["uptime-down", "sent", 1],
      ["uptime-recovered", "sent", 1],
    ]);
  });
});
