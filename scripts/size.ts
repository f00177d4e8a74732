import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { startReplica } from "../replica/server";
import { freePort } from "../tests/helpers/ports";
import { kb, measureFirstLoad, type PageWeight } from "./page-weight";

// `npm run size` (after `npm run build`): starts the production build on a temporary embedded
// database with the replica, polls once, saves a view, then loads each page in Chromium and prints
// the JavaScript its first load fetched (scripts/page-weight.ts), raw and gzipped. The target is
// under 200 KiB gzipped for every page (1 KB here is 1,024 bytes).

const MODEL = "moonshotai/kimi-k2.5";
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

if (!existsSync(".next/BUILD_ID")) {
  console.error("No production build: run `npm run build` first.");
  process.exit(2);
}

const replica = await startReplica();
const dataDir = mkdtempSync(path.join(tmpdir(), "routeboard-size-"));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const child: ChildProcess = spawn(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
  env: {
    ...process.env,
    OPENROUTER_BASE_URL: replica.baseUrl,
    // Keys for the replica, so /spend shows what a configured install shows: the spend chart,
    // the keys and the activity (the replica knows a management key by its prefix).
    OPENROUTER_API_KEY: "size-check-key-for-the-local-replica",
    OPENROUTER_MANAGEMENT_KEY: "sk-or-v1-mgmt-size-check-for-the-local-replica",
    EMBEDDED_DB_DIR: dataDir,
    DATABASE_URL: "",
    POLL_INTERVAL_SECONDS: "0",
    WATCHED_MODELS: MODEL,
    BASIC_AUTH: "",
    CRON_SECRET: "",
    NEXT_TELEMETRY_DISABLED: "1",
  },
  stdio: ["ignore", "ignore", "inherit"],
});

try {
  const deadline = Date.now() + 120_000;
  while (!(await fetch(`${url}/api/health`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error("The server did not start");
    await new Promise((r) => setTimeout(r, 250));
  }
  for (let i = 0; i < 2; i++) {
    // Two polls: two spend snapshots draw a line on /spend.
    const polled = await fetch(`${url}/api/poll`, { method: "POST" });
    if (!polled.ok) throw new Error(`A poll failed: HTTP ${polled.status}`);
  }
  const saved = await fetch(`${url}/api/views`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "size check", modelId: MODEL, query: "xq=int4" }),
  });
  const { slug } = (await saved.json()) as { slug: string };

  const pages = ["/", `/models/${MODEL}`, "/spend", `/v/${slug}`, "/alerts", "/notifications", "/no-such-page"];
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-dev-shm-usage"],
  });
  const weights: PageWeight[] = [];
  try {
    for (const pagePath of pages) {
      // A fresh context per page: nothing cached from the page before.
      const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 800 } });
      weights.push(await measureFirstLoad(await context.newPage(), pagePath));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  console.log("| page | scripts | JavaScript | gzipped |\n| --- | --- | --- | --- |");
  for (const w of weights) console.log(`| \`${w.path.replace(slug, "{slug}")}\` | ${w.scripts} | ${kb(w.rawBytes)} | ${kb(w.gzipBytes)} |`);
} finally {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
  await replica.close();
  rmSync(dataDir, { recursive: true, force: true });
}
