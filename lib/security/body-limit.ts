// How large a request body may be, for every route. Read by proxy.ts (and its two sizes by
// next.config.mjs, from static-config.mjs), so no server-only imports here.
//
// Next.js buffers a request's body for its proxy (proxy.ts) and, past
// `experimental.proxyClientMaxBodySize` (10 MB by default), silently passes on only the first part:
// a route handler would then read a cut body as if it were whole and, say, import half a usage
// file. So the buffer is set above the largest body any route accepts, by a margin far larger than
// one chunk of a request stream (Node reads at most 64 KiB at a time, and Next.js drops the whole
// chunk that crosses the limit): a body that was cut still arrives with more bytes than any route
// accepts, and proxy.ts refuses it with 413 whatever its encoding (a length or chunked).

import { LARGEST_BODY_BYTES } from "./static-config.mjs";

// The largest body any route accepts, and Next.js's proxy buffer above it (next.config.mjs).
export { LARGEST_BODY_BYTES, PROXY_BODY_BUFFER_BYTES } from "./static-config.mjs";

export const BODY_TOO_LARGE_MESSAGE = `The request body is over ${LARGEST_BODY_BYTES / 1024 / 1024} MB; nothing of it was used. Split a usage file into smaller files.`;

/**
 * True when a request's body is over LARGEST_BODY_BYTES: by its declared length, or, when it has
 * none (chunked), by counting the bytes as they come (stopping at the limit).
 */
export async function bodyOverLimit(request: Request, limit = LARGEST_BODY_BYTES): Promise<boolean> {
  if (request.method === "GET" || request.method === "HEAD") return false;
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) return true;
  if (!request.body) return false;
  const reader = request.body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return false;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return true;
    }
  }
}
