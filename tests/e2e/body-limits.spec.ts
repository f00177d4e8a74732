import http from "node:http";
import { expect, test } from "@playwright/test";
import { E2E_PORT } from "../../playwright.config";

// A body over the limit is refused with 413 whatever its encoding, and nothing of it is used.
// Sent with node:http so that the body really goes out chunked (no Content-Length), as
// `curl -T -` sends a file: Next.js hands its proxy only the first 10 MB of such a body, and a
// route must never read that part as if it were the whole.

const MiB = 1024 * 1024;

interface Answer {
  status: number;
  body: string;
}

/** Sends `body` in 64 KiB chunks; chunked unless `withLength`. */
function send(method: string, path: string, body: Buffer, { withLength = false, contentType = "application/x-ndjson" } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "content-type": contentType };
    if (withLength) headers["content-length"] = String(body.byteLength);
    const request = http.request({ host: "127.0.0.1", port: E2E_PORT, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (c: Buffer) => chunks.push(c));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
    });
    // The server may answer (and close) before the whole body is sent: that is the answer.
    request.on("error", reject);
    if (!withLength) expect(request.getHeader("content-length")).toBeUndefined();
    let offset = 0;
    const writeMore = () => {
      while (offset < body.byteLength) {
        const chunk = body.subarray(offset, offset + 64 * 1024);
        offset += chunk.byteLength;
        if (!request.write(chunk)) return void request.once("drain", writeMore);
      }
      request.end();
    };
    writeMore();
  });
}

// A provider and dataset of their own, so the records this file stores never mix with the usage
// figures other browser tests read from the same server.
const record = (id: string) => `${JSON.stringify({ id, provider: "Body-limit check", input_tokens: 10, output_tokens: 20, cost: 0.01, dataset: "limits-check" })}\n`;

/** A usage file of `size` bytes: a record at the start, blank padding, a record at the end. */
function usageFile(size: number, first: string, last: string): Buffer {
  const head = record(first);
  const tail = record(last);
  const padLine = `${" ".repeat(1023)}\n`;
  const padding = size - head.length - tail.length;
  const pad = padLine.repeat(Math.floor(padding / padLine.length)) + " ".repeat(padding % padLine.length);
  const file = Buffer.from(head + pad + tail);
  expect(file.byteLength).toBe(size);
  return file;
}

/** Imports the records again on their own: `accepted` says how many were not stored before. */
async function storedBefore(ids: string[]): Promise<number> {
  const answer = await send("POST", "/api/usage?filename=probe.jsonl", Buffer.from(ids.map(record).join("")), { withLength: true });
  expect(answer.status).toBe(200);
  const { accepted, duplicates } = JSON.parse(answer.body) as { accepted: number; duplicates: number };
  expect(accepted + duplicates).toBe(ids.length);
  return duplicates;
}

test.describe("request bodies over the limit", () => {
  test("a chunked usage file of 10.5 MiB with a record past the 10 MiB mark is refused, and nothing of it imported", async () => {
    const file = usageFile(10.5 * MiB, "chunked-first", "chunked-past-10mib");
    const answer = await send("POST", "/api/usage?filename=big.jsonl", file);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.message).toMatch(/over 10 MB|larger than 10 MB/);
    expect(await storedBefore(["chunked-first", "chunked-past-10mib"])).toBe(0);
  });

  test("the same file with a length is refused too", async () => {
    const file = usageFile(10.5 * MiB, "length-first", "length-past-10mib");
    const answer = await send("POST", "/api/usage?filename=big.jsonl", file, { withLength: true });
    expect(answer.status).toBe(413);
    expect(await storedBefore(["length-first", "length-past-10mib"])).toBe(0);
  });

  test("a chunked body far past Next.js's proxy buffer (40 MiB) is refused, not cut and imported", async () => {
    const answer = await send("POST", "/api/usage?filename=huge.jsonl", usageFile(40 * MiB, "huge-first", "huge-last"));
    expect(answer.status).toBe(413);
    expect(await storedBefore(["huge-first"])).toBe(0);
  });

  test("a chunked file just under the limit is imported whole, its last record included", async () => {
    const file = usageFile(10 * MiB - 1024, "under-first", "under-last");
    const answer = await send("POST", "/api/usage?filename=under.jsonl", file);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ accepted: 2, rejected: 0 });
    expect(await storedBefore(["under-first", "under-last"])).toBe(2);
  });

  test("every other route refuses an oversized chunked body with 413 too", async () => {
    const big = Buffer.alloc(10 * MiB + 1, " ");
    for (const [method, path] of [
      ["POST", "/api/views"],
      ["PUT", "/api/models/moonshotai/kimi-k2.5/known-quantization"],
      ["POST", "/api/poll"],
      ["POST", "/spend"], // a page, where server actions post
    ]) {
      const answer = await send(method, path, big, { contentType: "application/json" });
      expect(answer.status, `${method} ${path}`).toBe(413);
    }
    // A JSON route's own, smaller limit holds for a chunked body as well.
    const answer = await send("POST", "/api/views", Buffer.from(`{"name":"${"x".repeat(100 * 1024)}"}`), { contentType: "application/json" });
    expect(answer.status).toBe(413);
  });
});
