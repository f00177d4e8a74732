import { createHmac, randomBytes } from "node:crypto";

// Webhook signatures, the way Stripe signs theirs: HMAC-SHA256, with the channel's secret, of the
// attempt's timestamp, a dot and the raw request body, hex, in `X-Routeboard-Signature: sha256=<hex>`.
// The timestamp (Unix seconds, `X-Routeboard-Timestamp`) is inside what is signed, so a captured
// delivery cannot be replayed later with a fresh timestamp: receivers refuse a timestamp more than
// 5 minutes from their clock. The README shows a receiver's check (tests run it on real deliveries).

/** The signature header's value for one attempt sent at `timestamp` (Unix seconds). */
export function signDelivery(secret: string, timestamp: number, rawBody: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${rawBody}`, "utf8").digest("hex")}`;
}

/** A new channel secret: 32 random bytes, as "whsec_" + base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}
