import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { checkAddress, guardedLookup, RefusedAddressError } from "./address-guard";

// One POST to a receiver, with the guard on where it may connect, a hard timeout, and at most
// MAX_ANSWER_BYTES of the answer kept. Errors never carry the URL (a Slack URL is its own secret):
// they are rebuilt from the error code.

export const DELIVERY_TIMEOUT_MS = 5_000;
export const MAX_ANSWER_BYTES = 1024;

export interface PostResult {
  status: number;
  /** At most MAX_ANSWER_BYTES of the body, as text. */
  body: string;
}

export class DeliveryError extends Error {
  constructor(
    message: string,
    /** Retrying cannot help (the address is refused). */
    readonly permanent = false,
  ) {
    super(message);
  }
}

const CODE_MESSAGES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset by the receiver",
  ENOTFOUND: "the host cannot be resolved",
  EAI_AGAIN: "the host cannot be resolved right now",
  EHOSTUNREACH: "the host is unreachable",
  ENETUNREACH: "the network is unreachable",
  EPIPE: "the receiver closed the connection",
  CERT_HAS_EXPIRED: "the receiver's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the receiver's TLS certificate is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the receiver's TLS certificate cannot be verified",
  ERR_TLS_CERT_ALTNAME_INVALID: "the receiver's TLS certificate does not match its host",
};

/** A message safe to store and show: from the code only, never from the error's own text. */
function describe(err: unknown): DeliveryError {
  if (err instanceof DeliveryError) return err;
  if (err instanceof RefusedAddressError) return new DeliveryError(err.message, true);
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code && CODE_MESSAGES[code]) return new DeliveryError(`${CODE_MESSAGES[code]} (${code})`);
  return new DeliveryError(code ? `the request failed (${code})` : "the request failed");
}

export interface PostOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
}

export function postJson(rawUrl: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const { allowPrivate, timeoutMs = DELIVERY_TIMEOUT_MS } = options;
  return new Promise<PostResult>((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(rawUrl);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new DeliveryError("only http(s) URLs are allowed", true);
      // An address written in the URL is never looked up, so it is checked here.
      const literal = url.hostname.replace(/^\[|\]$/g, "");
      if (isIP(literal)) checkAddress(literal, allowPrivate);
    } catch (err) {
      return reject(err instanceof TypeError ? new DeliveryError("the URL is not valid", true) : describe(err));
    }
    const transport = url.protocol === "https:" ? https : http;
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const request = transport.request(
      url,
      {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), "user-agent": "Routeboard-Alerts/1", ...headers },
        lookup: guardedLookup(allowPrivate) as never,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          finish(() => resolve({ status: response.statusCode ?? 0, body: truncateUtf8(Buffer.concat(chunks), MAX_ANSWER_BYTES) }));
        response.on("data", (chunk: Buffer) => {
          if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
          size += chunk.length;
          // Enough kept: the rest is not read.
          if (size >= MAX_ANSWER_BYTES) {
            done();
            response.destroy();
          }
        });
        response.on("end", done);
        response.on("error", () => done());
      },
    );
    const timer = setTimeout(() => {
      finish(() => reject(new DeliveryError(`no answer within ${timeoutMs / 1000} s (timeout)`)));
      request.destroy();
    }, timeoutMs);
    request.on("error", (err) => finish(() => reject(describe(err))));
    request.end(body);
  });
}

/** At most maxBytes of a body as text, not cutting a character in half. */
export function truncateUtf8(bytes: Buffer, maxBytes: number): string {
  let end = Math.min(bytes.length, maxBytes);
  // Step back over continuation bytes of a character that does not fit whole.
  if (end < bytes.length) while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}
