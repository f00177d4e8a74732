import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChannel } from "@/lib/alerts/channels/store";
import { sendDueDeliveries, type SenderOptions } from "@/lib/alerts/sender";
import { putViewAlert } from "@/lib/alerts/view-settings";
import type { OpenedDb } from "@/lib/db/engines";
import { createOpenRouterClient } from "@/lib/openrouter/client";
import { runPollCycle } from "@/lib/poller/cycle";
import { uploadPromptSet } from "@/lib/probe/prompt-sets";
import { claimRun, processRun } from "@/lib/probe/runner";
import { createProbeRun, getRunResults } from "@/lib/probe/runs";
import { createView } from "@/lib/saved-views";
import { seedWatchedModels } from "@/lib/watched-models";
import { requantizeReplica, startReplica, type Replica } from "@/replica/server";
import { engines } from "../helpers/db";
import { startReceiver, takeSignedWebhooks, type Receiver, type ReceivedWebhook } from "../helpers/webhook-receiver";

// Issue 12, the probe condition end to end: a fidelity probe run by the real runner and client
// against the replica's chat endpoint finishes, its results and the view's alert event are written
// in one transaction, and the sender delivers one signed webhook to a real receiver. Between two
// runs the replica re-quantizes a faithful endpoint (Chutes), so its verdict flips. Deterministic:
// fixed prompts, and each request's seed is derived from its run and position (lib/probe/plan.ts).

const KIMI = "moonshotai/kimi-k2.5";
const TAG = "chutes/int4";
const SENDER: SenderOptions = { allowPrivate: true, baseUrl: "https://routeboard.example", baseDelayMs: 20, maxDelayMs: 200 };

describe.each(engines)("probe verdict → event → signed delivery on the $name engine", (engine) => {
  let opened: OpenedDb;
  let replica: Replica;
  let receiver: Receiver;
  let secret: string;
  let slug: string;
  let prompts: number;

  /** One probe of an endpoint (Chutes by default) against the reference over the 12 uploaded prompts, run to its end. */
  const probe = async (tag = TAG) => {
    const outcome = await createProbeRun(opened.db, KIMI, { maxCostUsd: "2.00", prompts: { id: prompts }, endpoints: [tag] });
    if (outcome.kind !== "created") throw new Error(`${outcome.kind}: ${outcome.message}`);
    const claimed = await claimRun(opened.db, 30, outcome.run.id);
    if (!claimed) throw new Error(`run ${outcome.run.id} could not be claimed`);
    const client = createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 15_000, maxAttempts: 1 });
    expect(await processRun(opened.db, client, outcome.run.id, claimed.lease, { baseDelayMs: 20, concurrencyPerProvider: 4 })).toBe("done");
    const results = await getRunResults(opened.db, outcome.run.id);
    return Object.fromEntries(results.map((r) => [r.tag, r.verdict]));
  };
  /** Runs the sender, then hands over what the receiver got since the last call, each signature checked. */
  const delivered = async (): Promise<ReceivedWebhook[]> => {
    await sendDueDeliveries(opened.db, SENDER);
    return takeSignedWebhooks(receiver, secret);
  };

  beforeAll(async () => {
    [opened, replica, receiver] = await Promise.all([engine.open(), startReplica(), startReceiver()]);
    await seedWatchedModels(opened.db, [KIMI]);
    const poll = () => runPollCycle(opened.db, createOpenRouterClient({ baseUrl: replica.baseUrl, timeoutMs: 2000, baseDelayMs: 5, maxAttempts: 2 }), { trigger: "test" });
    await poll();
    const lines = Array.from({ length: 12 }, (_, i) => JSON.stringify({ prompt: `Probe prompt number ${i}: say something about the number ${i * 7}.` }));
    const upload = await uploadPromptSet(opened.db, "alerts-probe", lines.join("\n"));
    if (!upload.ok) throw new Error("upload failed");
    prompts = upload.id;
    // xdiff=false: the view keeps endpoints the probe finds to differ (out of the box it would
    // exclude them, and the included set and routing export would change too), so the probe
    // condition is seen alone here.
    slug = (await createView(opened.db, { name: "Pipeline", modelId: KIMI, query: "xdiff=false" })).slug;
    const created = await createChannel(opened.db, { kind: "webhook", name: "Team hook", url: `${receiver.url}/hook` }, { allowPrivate: true });
    secret = created.secret as string;
    await putViewAlert(opened.db, slug, { enabled: true });
    await poll(); // the first evaluation records the view's answer (no probe yet) and says nothing
    expect(await delivered()).toEqual([]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([opened?.close(), replica?.close(), receiver?.close()]);
  });

  it("the first probe's verdicts are recorded, not announced", async () => {
    expect(await probe()).toEqual({ "moonshotai/int4": "reference", [TAG]: "equivalent" });
    expect(await delivered()).toEqual([]);
    expect(await opened.db.alertEvent.count()).toBe(0);
  });

  it("Chutes re-quantized: the next probe's verdict change is one signed delivery with the old and new verdicts", async () => {
    await requantizeReplica(replica.url, TAG, "nvfp4");
    expect(await probe()).toEqual({ "moonshotai/int4": "reference", [TAG]: "differs" });
    // Only the probe condition fired (the view keeps endpoints that differ, so the included set and
    // the routing export stay as they were).
    const events = await opened.db.alertEvent.findMany();
    expect(events.map((e) => [e.kind, e.modelId])).toEqual([["probe", KIMI]]);
    const [message, ...more] = await delivered();
    expect(more).toEqual([]);
    expect(message).toMatchObject({
      schemaVersion: 1,
      kind: "probe",
      view: { slug, name: "Pipeline", url: `https://routeboard.example/v/${slug}` },
      model: KIMI,
      data: { tag: TAG, provider: "Chutes", old: "equivalent", new: "differs" },
    });
    expect(message.eventId).toBe(events[0].eventId);
    expect(message.summary).toBe(`The fidelity probe verdict of Chutes (${TAG}) in “Pipeline” changed: equivalent → differs`);
    expect(await delivered()).toEqual([]); // sent once: the sender has nothing left
    const rows = await opened.db.alertDelivery.findMany({ include: { event: true } });
    expect(rows.map((r) => [r.event.kind, r.status, r.attempts])).toEqual([["probe", "sent", 1]]);
  });

  it("the same verdict again is no event", async () => {
    expect(await probe()).toEqual({ "moonshotai/int4": "reference", [TAG]: "differs" });
    expect(await delivered()).toEqual([]);
    expect(await opened.db.alertEvent.count()).toBe(1);
  });

  it("a run that probed another endpoint in between does not hide the next change of Chutes' verdict", async () => {
    expect(await probe("deepinfra")).toEqual({ "moonshotai/int4": "reference", deepinfra: "equivalent" });
    expect(await delivered()).toEqual([]); // deepinfra's first verdict; Chutes was not probed
    await requantizeReplica(replica.url, TAG, null); // its own weights again
    expect(await probe()).toEqual({ "moonshotai/int4": "reference", [TAG]: "equivalent" });
    const messages = await delivered();
    expect(messages.map((m) => [m.kind, m.data.tag, m.data.old, m.data.new])).toEqual([["probe", TAG, "differs", "equivalent"]]);
    expect(messages[0].summary).toBe(`The fidelity probe verdict of Chutes (${TAG}) in “Pipeline” changed: differs → equivalent`);
    expect(await opened.db.alertEvent.count()).toBe(2);
  });
});
