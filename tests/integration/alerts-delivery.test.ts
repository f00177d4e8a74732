import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ChannelInputError, createChannel, listChannels, updateChannel } from "@/lib/alerts/channels/store";
import { listDeliveries } from "@/lib/alerts/deliveries";
import { writeAlertEvent, type NewAlertEvent } from "@/lib/alerts/outbox";
import { claimDeliveries, sendDueDeliveries, type SenderOptions } from "@/lib/alerts/sender";
import { writeTestEvent } from "@/lib/alerts/test-event";
import { openDatabase, type Db } from "@/lib/db/engines";
import { engines } from "../helpers/db";
import { until } from "../helpers/poller-child";
import { freePort } from "../helpers/ports";
import { createScratchDatabase } from "../helpers/scratch";
import { loadReadmeVerifier, type ReadmeVerifier } from "../helpers/readme-snippet";
import { signatureProblem, startReceiver, type Receiver } from "../helpers/webhook-receiver";

// Delivery of alert events to a real HTTP receiver on 127.0.0.1 (so the address guard is lifted
// with allowPrivate, as ALLOW_PRIVATE_WEBHOOKS=true does, except where the guard is the test).

const BASE_URL = "https://routeboard.example";
const FAST: SenderOptions = { allowPrivate: true, baseUrl: BASE_URL, baseDelayMs: 20, maxDelayMs: 200 };

/** Two connections to one database on PostgreSQL (two instances); the same one twice on the embedded engine. */
async function openTwice(engine: (typeof engines)[number]) {
  if (engine.name === "embedded") {
    const opened = await engine.open();
    return { db: opened.db, other: opened.db, close: () => opened.close() };
  }
  const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL as string);
  const a = await openDatabase({ databaseUrl: scratch.url, embeddedDir: "unused" });
  const b = await openDatabase({ databaseUrl: scratch.url, embeddedDir: "unused" });
  return {
    db: a.db,
    other: b.db,
    close: async () => {
      await a.close();
      await b.close();
      await scratch.drop();
    },
  };
}

describe.each(engines)("alert delivery on the $name engine", (engine) => {
  let db: Db;
  let other: Db;
  let close: () => Promise<void>;
  let receiver: Receiver;
  let readmeVerify: ReadmeVerifier;

  beforeAll(async () => {
    ({ db, other, close } = await openTwice(engine));
    receiver = await startReceiver();
    readmeVerify = await loadReadmeVerifier();
  });
  afterAll(async () => {
    await receiver.close();
    await close();
  });
  beforeEach(async () => {
    await db.alertEvent.deleteMany();
    await db.alertChannel.deleteMany();
    receiver.received.length = 0;
    receiver.answer = () => ({ status: 200, body: "ok" });
  });

  const viewA = { id: 101, slug: "prod-kimi", name: "Prod Kimi" };
  const viewB = { id: 102, slug: "batch-kimi", name: "Batch Kimi" };

  async function write(summary: string, extra: Partial<NewAlertEvent> = {}) {
    return db.$transaction((tx) =>
      writeAlertEvent(tx, {
        kind: "endpoint",
        view: viewA,
        modelId: "moonshotai/kimi-k2.5",
        summary,
        data: { endpoint: "deepinfra/fp8", field: "promptPrice", old: "0.45", new: "0.50" },
        observedAt: new Date("2026-12-01T10:00:00.000Z"),
        ...extra,
      }),
    );
  }

  async function webhook(path = "/hook", secret?: string) {
    return createChannel(db, { kind: "webhook", name: "Pipeline", url: `${receiver.url}${path}`, ...(secret ? { secret } : {}) }, { allowPrivate: true });
  }

  const rows = () => db.alertDelivery.findMany({ orderBy: { id: "asc" }, include: { event: true } });
  const eventIdOf = (r: { body: string }) => (JSON.parse(r.body) as { eventId: string }).eventId;

  it("sends a webhook schema v1 body with headers and a signature the receiver verifies", async () => {
    const { channel, secret } = await webhook();
    expect(secret).toMatch(/^whsec_/);
    const event = await write("DeepInfra's prompt price rose from $0.45 to $0.50 per million tokens.");
    expect(await sendDueDeliveries(db, FAST)).toEqual({ sent: 1, retrying: 0, failed: 0 });

    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0];
    expect(got.path).toBe("/hook");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["x-routeboard-event-id"]).toBe(event.eventId);
    const sentAt = Number(got.headers["x-routeboard-timestamp"]);
    expect(Math.abs(sentAt - Date.now() / 1000)).toBeLessThan(60);
    // The receiver's check written in the tests, and the snippet in docs/alerts.md itself, accept it.
    expect(signatureProblem(got, secret as string)).toBeNull();
    expect(readmeVerify(got.body, got.headers, secret as string)).toBe(true);
    expect(readmeVerify(Buffer.from(got.body), got.headers, secret as string)).toBe(true);
    expect(JSON.parse(got.body)).toEqual({
      schemaVersion: 1,
      eventId: event.eventId,
      kind: "endpoint",
      occurredAt: "2026-12-01T10:00:00.000Z",
      view: { slug: "prod-kimi", name: "Prod Kimi", url: "https://routeboard.example/v/prod-kimi" },
      model: "moonshotai/kimi-k2.5",
      summary: "DeepInfra's prompt price rose from $0.45 to $0.50 per million tokens.",
      data: { endpoint: "deepinfra/fp8", field: "promptPrice", old: "0.45", new: "0.50" },
    });
    const [row] = await rows();
    expect(row).toMatchObject({ channelId: channel.id, status: "sent", attempts: 1, responseStatus: 200, responseBody: "ok", lastError: null, claimedBy: null });
    expect(row.sentAt).toBeInstanceOf(Date);
  });

  it("signs with a secret the user supplied", async () => {
    const { secret } = await webhook("/hook", "my-own-secret-1234567890");
    expect(secret).toBeNull(); // theirs already: not echoed
    await write("A change.");
    await sendDueDeliveries(db, FAST);
    const got = receiver.received[0];
    expect(signatureProblem(got, "my-own-secret-1234567890")).toBeNull();
    expect(readmeVerify(got.body, got.headers, "my-own-secret-1234567890")).toBe(true);
    expect(readmeVerify(got.body, got.headers, "another-secret-0123456789")).toBe(false);
  });

  it("signs the timestamp with the body: a replay is refused after 5 minutes, and a fresh timestamp on an old delivery does not verify", async () => {
    const { secret } = await webhook();
    await write("A change someone captured on the way.");
    await sendDueDeliveries(db, FAST);
    const got = receiver.received[0];
    const key = secret as string;
    const sentAt = Number(got.headers["x-routeboard-timestamp"]);
    // The snippet in docs/alerts.md at the receiver's clock: accepted up to 5 minutes either side, not after.
    expect(readmeVerify(got.body, got.headers, key, sentAt + 300)).toBe(true);
    expect(readmeVerify(got.body, got.headers, key, sentAt + 301)).toBe(false);
    expect(readmeVerify(got.body, got.headers, key, sentAt - 301)).toBe(false);
    expect(signatureProblem(got, key, (sentAt + 301) * 1000)).toMatch(/more than 5 minutes/);
    // Replaying it an hour later with the timestamp header changed to "now": the signature no longer matches.
    const replayed = { ...got, headers: { ...got.headers, "x-routeboard-timestamp": String(sentAt + 3600) } };
    expect(readmeVerify(replayed.body, replayed.headers, key, sentAt + 3600)).toBe(false);
    expect(signatureProblem(replayed, key, (sentAt + 3600) * 1000)).toBe("the signature does not match");
    // A changed body, or a missing header, does not verify either.
    expect(readmeVerify(got.body.replace("captured", "changed"), got.headers, key, sentAt)).toBe(false);
    expect(readmeVerify(got.body, { ...got.headers, "x-routeboard-timestamp": undefined }, key, sentAt)).toBe(false);
    expect(readmeVerify(got.body, { ...got.headers, "x-routeboard-signature": undefined }, key, sentAt)).toBe(false);
  });

  it("sends Slack a readable message with a link back to the view", async () => {
    await createChannel(db, { kind: "slack", name: "#routing", url: `${receiver.url}/services/T0/B0/slack` }, { allowPrivate: true });
    await write("Novita left the included set: its quantization is now fp4.", { kind: "included" });
    await sendDueDeliveries(db, FAST);
    expect(receiver.received).toHaveLength(1);
    const body = JSON.parse(receiver.received[0].body);
    expect(body.text).toBe("Novita left the included set: its quantization is now fp4. (Prod Kimi)");
    expect(body.blocks[0].text.text).toBe("Novita left the included set: its quantization is now fp4.\n<https://routeboard.example/v/prod-kimi|Prod Kimi>");
    expect(body.blocks[1].elements[0].text).toContain("*included*");
    expect(receiver.received[0].headers["x-routeboard-signature"]).toBeUndefined();
  });

  it("retries while the receiver is down, then delivers once when it is back", async () => {
    const port = await freePort();
    await createChannel(db, { kind: "webhook", name: "Down", url: `http://127.0.0.1:${port}/hook-path-token` }, { allowPrivate: true });
    const event = await write("A change while the receiver is down.");
    expect(await sendDueDeliveries(db, { ...FAST, baseDelayMs: 60_000, maxDelayMs: 3_600_000 })).toEqual({ sent: 0, retrying: 1, failed: 0 });
    const [waiting] = await rows();
    expect(waiting).toMatchObject({ status: "retrying", attempts: 1, lastError: "connection refused (ECONNREFUSED)", responseStatus: null });
    // The first retry waits between 30 and 60 s (half the ceiling at least): nothing goes out before then.
    const wait = waiting.nextAttemptAt.getTime() - Date.now();
    expect(wait).toBeGreaterThan(25_000);
    expect(wait).toBeLessThanOrEqual(60_000);
    expect(await sendDueDeliveries(db, FAST)).toEqual({ sent: 0, retrying: 0, failed: 0 });

    const back = await startReceiver(port);
    try {
      // The minute passes.
      await db.alertDelivery.updateMany({ data: { nextAttemptAt: new Date() } });
      await until("the retry to be sent", async () => {
        await sendDueDeliveries(db, FAST);
        return (await rows())[0].status === "sent";
      });
      expect(back.received.map(eventIdOf)).toEqual([event.eventId]);
      const [sent] = await rows();
      expect(sent.attempts).toBeGreaterThanOrEqual(2);
      expect(sent.lastError).toBeNull();
      // Nothing more goes out on later rounds.
      expect(await sendDueDeliveries(db, FAST)).toEqual({ sent: 0, retrying: 0, failed: 0 });
      expect(back.received).toHaveLength(1);
    } finally {
      await back.close();
    }
  });

  it("gives up after the bounded number of attempts, and says so", async () => {
    await webhook();
    receiver.answer = () => ({ status: 500, body: "boom" });
    await write("A change the receiver keeps failing.");
    await until("the delivery to be given up", async () => {
      await sendDueDeliveries(db, { ...FAST, maxAttempts: 3 });
      return (await rows())[0].status === "failed";
    });
    const [row] = await rows();
    expect(row).toMatchObject({ status: "failed", attempts: 3, responseStatus: 500, responseBody: "boom" });
    expect(row.lastError).toBe("the receiver answered 500; gave up after 3 attempts");
    expect(receiver.received).toHaveLength(3);
    expect(await sendDueDeliveries(db, { ...FAST, maxAttempts: 3 })).toEqual({ sent: 0, retrying: 0, failed: 0 });
  });

  it("a delivery claimed by a sender that died goes out once its lease has run out", async () => {
    await webhook();
    const event = await write("A change written just before the crash.");
    // The dead sender: it claimed the row (lease 1 s) and never sent or marked it.
    const claimed = await claimDeliveries(db, "sender-that-died", 1, 10);
    expect(claimed.map((c) => c.event.eventId)).toEqual([event.eventId]);
    // While the lease holds, another sender leaves it alone.
    expect(await sendDueDeliveries(db, { ...FAST, workerId: "survivor" })).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(receiver.received).toHaveLength(0);
    await until("the dead sender's lease to run out", async () => {
      const [row] = await db.$queryRaw<Array<{ expired: boolean }>>`SELECT "claimedUntil" < now() AS expired FROM "AlertDelivery"`;
      return row.expired;
    });
    expect(await sendDueDeliveries(db, { ...FAST, workerId: "survivor" })).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(receiver.received.map(eventIdOf)).toEqual([event.eventId]);
    expect((await rows())[0]).toMatchObject({ status: "sent", attempts: 2 });
  });

  it(`two senders${engine.name === "postgres" ? " on two connections" : ""} share the outbox: one delivery per event and channel`, async () => {
    await webhook("/one");
    await createChannel(db, { kind: "slack", name: "#two", url: `${receiver.url}/two` }, { allowPrivate: true });
    const written = [];
    for (let i = 0; i < 15; i++) {
      // Several views, so that both senders find work at once.
      written.push(await write(`Change ${i}.`, { view: { id: 200 + (i % 5), slug: `v${i % 5}`, name: `View ${i % 5}` } }));
    }
    const [a, b] = await Promise.all([
      sendDueDeliveries(db, { ...FAST, workerId: "instance-a", batchSize: 3 }),
      sendDueDeliveries(other, { ...FAST, workerId: "instance-b", batchSize: 3 }),
    ]);
    expect(a.sent + b.sent).toBe(30);
    expect(receiver.received).toHaveLength(30);
    const keys = receiver.received.map((r) => `${r.path} ${r.path === "/one" ? eventIdOf(r) : JSON.parse(r.body).blocks[1].elements[0].text.split("event ")[1]}`);
    expect(new Set(keys).size).toBe(30);
    expect((await rows()).every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
  });

  it("delivers each view's events to a channel in the order they happened, even when one must be retried", async () => {
    await webhook();
    let failedOnce = false;
    receiver.answer = (r) => {
      if (JSON.parse(r.body).summary === "A1" && !failedOnce) {
        failedOnce = true;
        return { status: 503, body: "busy" };
      }
      return { status: 200, body: "ok" };
    };
    await write("A1");
    await write("A2");
    await write("B1", { view: viewB });
    await write("A3");
    await until("every delivery to be sent", async () => {
      await sendDueDeliveries(db, FAST);
      return (await rows()).every((r) => r.status === "sent");
    });
    const summaries = receiver.received.map((r) => JSON.parse(r.body).summary as string);
    expect(summaries.filter((s) => s.startsWith("A"))).toEqual(["A1", "A1", "A2", "A3"]);
    // B's view did not wait for A's retry.
    expect(summaries.indexOf("B1")).toBeLessThan(summaries.lastIndexOf("A1"));
  });

  it("refuses a private address without ALLOW_PRIVATE_WEBHOOKS, at save and at send, and sends with it", async () => {
    await expect(
      createChannel(db, { kind: "webhook", name: "Local", url: `${receiver.url}/hook` }, { allowPrivate: false }),
    ).rejects.toThrow(new ChannelInputError("url", "points at a loopback address (127.0.0.1); set ALLOW_PRIVATE_WEBHOOKS=true to allow it"));
    await expect(
      createChannel(db, { kind: "webhook", name: "Local", url: `http://localhost:${receiver.port}/hook` }, { allowPrivate: false }),
    ).rejects.toThrow(/url: its host resolves to a loopback address/);

    // Saved while allowed (or a name that resolved elsewhere then): checked again when sending.
    await createChannel(db, { kind: "webhook", name: "Local by name", url: `http://localhost:${receiver.port}/by-name` }, { allowPrivate: true });
    await write("Refused by name.");
    expect(await sendDueDeliveries(db, { ...FAST, allowPrivate: false })).toEqual({ sent: 0, retrying: 0, failed: 1 });
    const [refused] = await rows();
    expect(refused.status).toBe("failed");
    expect(refused.attempts).toBe(1);
    expect(refused.lastError).toMatch(/^refused: the host resolves to (127\.0\.0\.1|::1), a loopback address \(set ALLOW_PRIVATE_WEBHOOKS=true to allow it\)$/);

    await db.alertChannel.deleteMany();
    await webhook("/literal");
    await write("Refused by address.");
    expect(await sendDueDeliveries(db, { ...FAST, allowPrivate: false })).toEqual({ sent: 0, retrying: 0, failed: 1 });
    expect((await rows())[0].lastError).toBe("refused: the host resolves to 127.0.0.1, a loopback address (set ALLOW_PRIVATE_WEBHOOKS=true to allow it)");
    expect(receiver.received).toHaveLength(0);

    await write("Allowed.");
    expect(await sendDueDeliveries(db, { ...FAST, allowPrivate: true })).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(receiver.received.map((r) => JSON.parse(r.body).summary)).toEqual(["Allowed."]);

    // With the flag, a name goes through the same lookup the connection uses, and connects.
    await db.alertChannel.deleteMany();
    await createChannel(db, { kind: "webhook", name: "By name", url: `http://localhost:${receiver.port}/by-name` }, { allowPrivate: true });
    await write("Allowed by name.");
    expect(await sendDueDeliveries(db, { ...FAST, allowPrivate: true })).toEqual({ sent: 1, retrying: 0, failed: 0 });
    expect(receiver.received.map((r) => `${r.path} ${JSON.parse(r.body).summary}`)).toEqual(["/literal Allowed.", "/by-name Allowed by name."]);
  });

  it("records a timeout when the receiver does not answer within 5 s", async () => {
    await webhook();
    receiver.answer = () => "hang";
    await write("Nobody answers.");
    expect(await sendDueDeliveries(db, { ...FAST, baseDelayMs: 60_000, maxDelayMs: 3_600_000 })).toEqual({ sent: 0, retrying: 1, failed: 0 });
    expect((await rows())[0]).toMatchObject({ status: "retrying", attempts: 1, lastError: "no answer within 5 s (timeout)", responseStatus: null });
    expect(receiver.received).toHaveLength(1);
  });

  it("keeps at most 1 KB of the receiver's answer", async () => {
    await webhook();
    receiver.answer = () => ({ status: 200, body: "x".repeat(50_000) });
    await write("A chatty receiver.");
    await sendDueDeliveries(db, FAST);
    const [row] = await rows();
    expect(row.status).toBe("sent");
    expect(row.responseBody).toBe("x".repeat(1024));
  });

  it("keeps URLs and secrets out of lists and errors", async () => {
    const port = await freePort();
    const created = await createChannel(
      db,
      { kind: "webhook", name: "Secretive", url: `http://127.0.0.1:${port}/hooks/very-secret-path-token` },
      { allowPrivate: true },
    );
    expect(created.channel.urlHint).toBe(`http://127.0.0.1:${port}/…oken`);
    await createChannel(db, { kind: "slack", name: "Slack", url: `http://127.0.0.1:${port}/services/T0/B0/slack-secret-token` }, { allowPrivate: true });
    await write("Sent nowhere.");
    await sendDueDeliveries(db, FAST);
    const shown = JSON.stringify({ channels: await listChannels(db), deliveries: await listDeliveries(db, { limit: 20 }) });
    expect(shown).toContain("connection refused");
    expect(shown).toContain("Secretive");
    expect(shown).not.toContain("very-secret-path-token");
    expect(shown).not.toContain("slack-secret-token");
    expect(shown).not.toContain(created.secret as string);
    expect(shown).not.toMatch(/whsec_/);
    const stored = await db.alertChannel.findMany();
    expect(stored.find((c) => c.kind === "webhook")?.secret).toBe(created.secret);
  });

  it("holds a disabled channel's deliveries until it is enabled; a test event goes to one channel only", async () => {
    const { channel } = await webhook("/first");
    await webhook("/second");
    await write("Written before the channel was disabled.");
    await updateChannel(db, channel.id, { enabled: false }, { allowPrivate: true });
    await write("Written while it is disabled: not for it."); // the outbox writes no delivery to a disabled channel
    await sendDueDeliveries(db, FAST);
    expect(receiver.received.map((r) => r.path)).toEqual(["/second", "/second"]);
    await updateChannel(db, channel.id, { enabled: true }, { allowPrivate: true });
    await sendDueDeliveries(db, FAST);
    expect(receiver.received.map((r) => `${r.path} ${JSON.parse(r.body).summary}`).slice(2)).toEqual(["/first Written before the channel was disabled."]);

    const test = await writeTestEvent(db, { id: channel.id, name: "Pipeline" });
    await sendDueDeliveries(db, FAST);
    expect(receiver.received.map((r) => r.path)).toEqual(["/second", "/second", "/first", "/first"]);
    const body = JSON.parse(receiver.received[3].body);
    expect(body).toMatchObject({ schemaVersion: 1, eventId: test.eventId, kind: "test", view: null, summary: 'Test message from Routeboard to the channel "Pipeline".' });
  });
});
