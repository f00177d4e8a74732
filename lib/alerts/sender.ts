import "server-only";
import { randomUUID } from "node:crypto";
import type { Db } from "../db/engines";
import { backoffMs } from "../backoff";
import { isChannelKind } from "./channels";
import { channelRequest, type EventForMessage } from "./payload";
import { DeliveryError, postJson, type PostResult } from "./post";

// The sender: carries AlertDelivery rows (written by writeAlertEvent in lib/alerts/outbox.ts) to
// their channels. All its state is in the database, so it survives restarts and several
// instances on one PostgreSQL server share the work:
// - claimDeliveries() takes due rows with one UPDATE over a FOR UPDATE SKIP LOCKED selection and
//   puts a lease on them (claimedBy, claimedUntil): two senders never take the same row. A row
//   whose sender died stays 'sending' until its lease runs out, then it is due again.
// - A view's events go to a channel in the order they happened: a row is not taken while an
//   earlier event of the same view (or, for events without a view, an earlier one without a view)
//   to the same channel is still waiting, being sent or being retried. "Send test" events skip the line.
// - A failed attempt is retried with jittered exponential backoff (lib/backoff.ts); after
//   maxAttempts the row is 'failed'.
// - Delivery is at least once: a message sent whose 'sent' mark was not committed (a crash in
//   between) is sent again after the lease; receivers drop duplicates by eventId.

export interface SenderOptions {
  /** Lifts the address guard (ALLOW_PRIVATE_WEBHOOKS). */
  allowPrivate: boolean;
  /** The app's public address, for links back to views. */
  baseUrl: string;
  /** This sender's name in claimedBy. */
  workerId?: string;
  maxAttempts?: number;
  /** The longest wait after the first failed attempt; doubled after each next one, capped at maxDelayMs (lib/backoff.ts). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  leaseSeconds?: number;
  batchSize?: number;
  timeoutMs?: number;
}

export const DELIVERY_DEFAULTS = { maxAttempts: 8, baseDelayMs: 30_000, maxDelayMs: 3_600_000, leaseSeconds: 60, batchSize: 10 };

export interface ClaimedDelivery {
  id: number;
  attempts: number;
  channelKind: string;
  channelUrl: string;
  channelSecret: string | null;
  event: EventForMessage;
}

interface ClaimedRow {
  id: number;
  attempts: number;
  kind: string;
  url: string;
  secret: string | null;
  eventId: string;
  eventKind: string;
  viewSlug: string | null;
  viewName: string | null;
  modelId: string | null;
  summary: string;
  data: unknown;
  observedAt: Date;
}

/** Claims up to batchSize due deliveries for this worker; each claim counts as an attempt. */
export async function claimDeliveries(db: Db, workerId: string, leaseSeconds: number, batchSize: number): Promise<ClaimedDelivery[]> {
  const rows = await db.$queryRaw<ClaimedRow[]>`
    WITH due AS (
      SELECT d.id
        FROM "AlertDelivery" d
        JOIN "AlertEvent" e ON e.id = d."eventId"
        JOIN "AlertChannel" c ON c.id = d."channelId"
       WHERE c.enabled
         AND ((d.status IN ('pending', 'retrying') AND d."nextAttemptAt" <= now())
              OR (d.status = 'sending' AND d."claimedUntil" < now()))
         AND (e.kind = 'test' OR NOT EXISTS (
               SELECT 1
                 FROM "AlertDelivery" p
                 JOIN "AlertEvent" pe ON pe.id = p."eventId"
                WHERE p."channelId" = d."channelId"
                  AND p."eventId" < d."eventId"
                  AND pe.kind <> 'test'
                  AND pe."viewId" IS NOT DISTINCT FROM e."viewId"
                  AND p.status IN ('pending', 'retrying', 'sending')))
       ORDER BY d."eventId", d.id
       LIMIT ${batchSize}
         FOR UPDATE OF d SKIP LOCKED
    )
    UPDATE "AlertDelivery" d
       SET status = 'sending',
           "claimedBy" = ${workerId},
           "claimedUntil" = now() + make_interval(secs => ${leaseSeconds}::int),
           attempts = d.attempts + 1
      FROM due, "AlertEvent" e, "AlertChannel" c
     WHERE d.id = due.id AND e.id = d."eventId" AND c.id = d."channelId"
 RETURNING d.id, d.attempts, c.kind, c.url, c.secret, e."eventId", e.kind AS "eventKind", e."viewSlug", e."viewName",
           e."modelId", e.summary, e.data, e."observedAt"`;
  return rows
    .sort((a, b) => a.id - b.id)
    .map((r) => ({
      id: r.id,
      attempts: r.attempts,
      channelKind: r.kind,
      channelUrl: r.url,
      channelSecret: r.secret,
      event: {
        eventId: r.eventId,
        kind: r.eventKind,
        viewSlug: r.viewSlug,
        viewName: r.viewName,
        modelId: r.modelId,
        summary: r.summary,
        data: r.data,
        observedAt: r.observedAt,
      },
    }));
}

/**
 * The request a channel receives for one event: body and headers, by its kind's definition. Kinds
 * are checked when a channel is created; a row given an unknown kind by hand is sent as a webhook.
 */
export function requestFor(delivery: ClaimedDelivery, baseUrl: string, now = new Date()): { body: string; headers: Record<string, string> } {
  const kind = isChannelKind(delivery.channelKind) ? delivery.channelKind : "webhook";
  return channelRequest(kind, delivery.event, { baseUrl, secret: delivery.channelSecret, now });
}

export type DeliveryOutcome = "sent" | "retrying" | "failed" | "lost-claim";

/** Sends one claimed delivery and records what happened (only while the claim is still ours). */
export async function sendClaimed(db: Db, delivery: ClaimedDelivery, workerId: string, options: SenderOptions): Promise<DeliveryOutcome> {
  const { maxAttempts, baseDelayMs, maxDelayMs } = { ...DELIVERY_DEFAULTS, ...options };
  const { body, headers } = requestFor(delivery, options.baseUrl);
  let result: PostResult | null = null;
  let error: DeliveryError | null = null;
  try {
    result = await postJson(delivery.channelUrl, body, headers, { allowPrivate: options.allowPrivate, timeoutMs: options.timeoutMs });
    if (result.status < 200 || result.status > 299) error = new DeliveryError(`the receiver answered ${result.status}`);
  } catch (err) {
    error = err instanceof DeliveryError ? err : new DeliveryError("the request failed");
  }
  const giveUp = error !== null && (error.permanent || delivery.attempts >= maxAttempts);
  const status: DeliveryOutcome = error === null ? "sent" : giveUp ? "failed" : "retrying";
  const retryAt = new Date(Date.now() + backoffMs(delivery.attempts, { baseMs: baseDelayMs, capMs: maxDelayMs }));
  const updated = await db.alertDelivery.updateMany({
    where: { id: delivery.id, claimedBy: workerId, status: "sending" },
    data: {
      status,
      claimedBy: null,
      claimedUntil: null,
      lastError: error ? (giveUp && !error.permanent ? `${error.message}; gave up after ${delivery.attempts} attempts` : error.message) : null,
      responseStatus: result?.status ?? null,
      responseBody: result?.body ?? null,
      ...(status === "sent" ? { sentAt: new Date() } : {}),
      ...(status === "retrying" ? { nextAttemptAt: retryAt } : {}),
    },
  });
  return updated.count === 1 ? status : "lost-claim";
}

export interface SendRound {
  sent: number;
  retrying: number;
  failed: number;
}

/**
 * Sends every delivery that is due now, batch after batch, until none is left (those waiting
 * for a retry time stay for a later round). Deliveries of one batch go out concurrently; each
 * view's order holds because a later event is not claimable while an earlier one is in flight.
 */
export async function sendDueDeliveries(db: Db, options: SenderOptions): Promise<SendRound> {
  const workerId = options.workerId ?? `sender-${randomUUID()}`;
  const { leaseSeconds, batchSize } = { ...DELIVERY_DEFAULTS, ...options };
  const round: SendRound = { sent: 0, retrying: 0, failed: 0 };
  for (;;) {
    const claimed = await claimDeliveries(db, workerId, leaseSeconds, batchSize);
    if (!claimed.length) return round;
    const outcomes = await Promise.all(claimed.map((d) => sendClaimed(db, d, workerId, options)));
    for (const o of outcomes) if (o !== "lost-claim") round[o]++;
  }
}
