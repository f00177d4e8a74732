import { gzipSync } from "node:zlib";
import type { Page, Response } from "@playwright/test";

// What a first load of a page costs in JavaScript: every script the browser fetched until the
// network went quiet, without scrolling (what loads when a section scrolls into view is not part of
// the first load). Sizes are of the bytes as served, and gzipped here at the default level.

export interface PageWeight {
  path: string;
  scripts: number;
  rawBytes: number;
  gzipBytes: number;
}

export async function measureFirstLoad(page: Page, path: string): Promise<PageWeight> {
  const bodies = new Map<string, Promise<Buffer | null>>();
  const onResponse = (response: Response) => {
    if (response.request().resourceType() === "script") bodies.set(response.url(), response.body().catch(() => null));
  };
  page.on("response", onResponse);
  try {
    await page.goto(path, { waitUntil: "networkidle" });
  } finally {
    page.off("response", onResponse);
  }
  let rawBytes = 0;
  let gzipBytes = 0;
  const detail = process.env.SIZE_DETAIL === "1";
  for (const [url, pending] of bodies) {
    const body = await pending;
    if (!body) continue;
    const gz = gzipSync(body).byteLength;
    rawBytes += body.byteLength;
    gzipBytes += gz;
    if (detail) console.log(`  ${path} ${kb(gz).padStart(9)} gz  ${new URL(url).pathname}`);
  }
  return { path, scripts: bodies.size, rawBytes, gzipBytes };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
