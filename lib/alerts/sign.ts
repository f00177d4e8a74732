import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// Webhook signatures, the way GitHub signs theirs: HMAC-SHA256 of the raw request body with the
// channel's secret, hex, in `X-Routeboard-Signature: sha256=<hex>`. The README shows a receiver's check.

export const SIGNATURE_HEADER = "X-Routeboard-Signature";
export const EVENT_ID_HEADER = "X-Routeboard-Event-Id";
export const TIMESTAMP_HEADER = "X-Routeboard-Timestamp";

export function signBody(secret: string, rawBody: string): string {
  return `sha256=${createHmac("sha256", secret).update(rawBody, "utf8").digest("hex")}`;
}

/** The receiver's check, in constant time. */
export function verifySignature(secret: string, rawBody: string, header: string | null | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(secret, rawBody));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** A new channel secret: 32 random bytes, as "whsec_" + base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}
