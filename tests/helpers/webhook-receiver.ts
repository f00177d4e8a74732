import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { WebhookBodyV1 } from "../../lib/alerts/payload";

// A real HTTP receiver for alert deliveries, on 127.0.0.1: it records every request (headers and
// raw body) and answers as the test says (a status and body, or no answer at all).

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Answer = { status: number; body?: string } | "hang";

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** How to answer the next requests (default 200 "ok"). */
  answer: (request: Received) => Answer;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const hanging = new Set<import("node:http").ServerResponse>();
  const receiver: Receiver = {
    url: "",
    port: 0,
    received: [],
    answer: () => ({ status: 200, body: "ok" }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      const got: Received = { path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") };
      receiver.received.push(got);
      const answer = receiver.answer(got);
      if (answer === "hang") {
        hanging.add(response);
        return;
      }
      response.writeHead(answer.status, { "content-type": "text/plain" });
      response.end(answer.body ?? "");
    });
  });
  server.keepAliveTimeout = 0; // idle connections are the client's to close: see replica/server.ts
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  receiver.port = (server.address() as { port: number }).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}

/** A webhook body (schema v1) as a test reads it: data as an object. */
export type ReceivedWebhook = Omit<WebhookBodyV1, "data"> & { data: Record<string, unknown> };

/** The receiver's window around its clock for a delivery's timestamp, as docs/alerts.md documents. */
export const TOLERANCE_SECONDS = 5 * 60;

/**
 * The receiver's check, written from the description in docs/alerts.md and not from lib/alerts/sign.ts
 * (a check shares no code with what it checks): `sha256=` + hex HMAC-SHA256 of
 * "{X-Routeboard-Timestamp}.{raw body}", and the timestamp within TOLERANCE_SECONDS of `nowMs`.
 * Says why a delivery is refused, or null when it is accepted.
 */
export function signatureProblem(request: Pick<Received, "headers" | "body">, secret: string, nowMs = Date.now()): string | null {
  const timestamp = request.headers["x-routeboard-timestamp"];
  const signature = request.headers["x-routeboard-signature"];
  if (typeof timestamp !== "string" || !/^[0-9]+$/.test(timestamp)) return "no timestamp";
  if (typeof signature !== "string") return "no signature";
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return `timestamp ${timestamp} is more than 5 minutes from now`;
  const mac = createHmac("sha256", secret);
  mac.update(Buffer.from(timestamp, "ascii"));
  mac.update(Buffer.from([0x2e])); // "."
  mac.update(Buffer.from(request.body, "utf8"));
  const expected = Buffer.from(`sha256=${mac.digest("hex")}`);
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? null : "the signature does not match";
}

/**
 * Hands over (and forgets) what the receiver got; throws when a signature, its timestamp or an
 * event-id header is wrong (plain errors: Vitest and Playwright specs both use this file).
 */
export function takeSignedWebhooks(receiver: Receiver, secret: string): ReceivedWebhook[] {
  return receiver.received.splice(0).map((request) => {
    const problem = signatureProblem(request, secret);
    if (problem) throw new Error(`a delivery to ${request.path} is refused: ${problem}`);
    const body = JSON.parse(request.body) as ReceivedWebhook;
    if (request.headers["x-routeboard-event-id"] !== body.eventId) throw new Error(`event-id header differs from the body's eventId ${body.eventId}`);
    return body;
  });
}
