import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { WebhookBodyV1 } from "../../lib/alerts/payload";
import { EVENT_ID_HEADER, SIGNATURE_HEADER, verifySignature } from "../../lib/alerts/sign";

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

/**
 * Hands over (and forgets) what the receiver got; throws when a signature or an event-id header
 * is wrong (plain errors: Vitest and Playwright specs both use this file).
 */
export function takeSignedWebhooks(receiver: Receiver, secret: string): ReceivedWebhook[] {
  return receiver.received.splice(0).map((request) => {
    if (!verifySignature(secret, request.body, request.headers[SIGNATURE_HEADER.toLowerCase()] as string)) {
      throw new Error(`a delivery to ${request.path} has no valid signature`);
    }
    const body = JSON.parse(request.body) as ReceivedWebhook;
    if (request.headers[EVENT_ID_HEADER.toLowerCase()] !== body.eventId) throw new Error(`event-id header differs from the body's eventId ${body.eventId}`);
    return body;
  });
}
