import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { until } from "../helpers/poller-child";
import { freePort } from "../helpers/ports";
import { E2E_ENGINE } from "./database";
import { SCREENSHOT_DIR } from "./helpers";

// `npm run demo` itself (scripts/demo.ts), as a user runs it, on a folder of its own: the demo
// generates its month of history, runs its probe, seeds a saved view with alerts on, and serves the
// dashboard against its drifting replica. Two presses of "Poll now" bring that view's first alert
// to /notifications. Then the demo is stopped and started again on the same folder: the next poll
// logs one price change, as any other poll does, not a burst of every drifted price at one instant.
// The demo runs on the embedded engine whatever the suite's engine (it always does), so the
// PostgreSQL pass would run the same thing again (4-5 minutes): it runs in the embedded pass only.
// The scheduler is off (POLL_INTERVAL_SECONDS=0) so that only the presses poll.

const KIMI = "moonshotai/kimi-k2.5";
const VIEW = "Full precision, 95% uptime (demo)";

interface Demo {
  url: string;
  logs(): string;
  stop(): Promise<void>;
}

async function startDemo(dataDir: string): Promise<Demo> {
  const [port, replicaPort] = [await freePort(), await freePort()];
  let log = "";
  // Its own process group: the demo, the `npx next start` it spawns and the server are stopped together.
  const child: ChildProcess = spawn(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "--conditions=react-server", "scripts/demo.ts"], {
    env: { ...process.env, PORT: String(port), REPLICA_PORT: String(replicaPort), EMBEDDED_DB_DIR: dataDir, POLL_INTERVAL_SECONDS: "0", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout?.on("data", (c: Buffer) => (log += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (log += c.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await until(
    "the demo's dashboard to answer",
    async () => {
      if (child.exitCode !== null) throw new Error(`The demo exited (${child.exitCode}):\n${log}`);
      return fetch(`${url}/api/health`).then((r) => r.status === 200 || r.status === 503, () => false);
    },
    480_000,
  );
  return {
    url,
    logs: () => log,
    stop: async () => {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGTERM");
      await exited;
      // The server the demo started may still be closing the folder: the next start waits until it
      // has let go of its lock (lib/db/embedded-lock.ts: the lock folder is removed on exit, or
      // goes stale after 10 s when a process dies without removing it).
      const lock = path.join(dataDir, "routeboard.lock");
      const released = () => {
        try {
          return Date.now() - statSync(lock).mtimeMs > 10_000;
        } catch {
          return true; // no lock folder: released
        }
      };
      await until("the demo's server to let go of the folder", released, 60_000);
    },
  };
}

let dataDir: string;
let demo: Demo | null = null;
test.beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "routeboard-demo-"));
});
test.afterAll(async () => {
  await demo?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Presses "Poll now" on the open model page and waits for the poll it started to be stored. */
async function pressPollNow(page: Page, url: string) {
  const polledAt = async () => ((await (await fetch(`${url}/api/models/${KIMI}/latest-poll`)).json()) as { polledAt: string | null }).polledAt;
  const before = await polledAt();
  await page.getByRole("button", { name: "Poll now" }).click();
  await until("the pressed poll to be stored", async () => (await polledAt()) !== before, 60_000);
  await expect(page.getByRole("status").filter({ hasText: "Polled" })).toContainText("Polled 1 model");
}

async function changesAtLatestPoll(url: string) {
  const { changes } = (await (await fetch(`${url}/api/models/${KIMI}/changes?limit=50`)).json()) as {
    changes: Array<{ observedAt: string; kind: string; tag: string; before: string | null; after: string | null }>;
  };
  const latest = changes[0]?.observedAt;
  return changes.filter((c) => c.observedAt === latest);
}

test.skip(E2E_ENGINE === "postgres", "the demo always runs on the embedded engine: the embedded pass runs it");

test("npm run demo: two presses of Poll now bring the seeded view's first alert; a restart continues the drift", async ({ browser }) => {
  test.setTimeout(180_000); // the first start generates a month of history and runs a probe: 44 s in a CI run
  demo = await startDemo(dataDir);
  expect(demo.logs()).toContain(`has its alerts on`);

  const page = await browser.newPage({ baseURL: demo.url, viewport: { width: 1280, height: 900 } });
  await page.goto("/notifications");
  await expect(page.getByRole("list", { name: "Notifications" }).getByRole("listitem")).toHaveCount(0);

  await page.goto(`/models/${KIMI}`);
  await expect(page.getByRole("note", { name: "Demo data" }).first()).toBeVisible();
  for (let press = 1; press <= 2; press++) await pressPollNow(page, demo.url);

  await page.goto("/notifications");
  const alerts = page.getByRole("list", { name: "Notifications" }).getByRole("listitem");
  await expect(alerts.first()).toBeVisible();
  await expect(alerts.filter({ hasText: VIEW }).filter({ hasText: /price/i }).first()).toBeVisible();
  await expect(alerts.first()).toContainText("demo");
  await page.screenshot({ path: `${SCREENSHOT_DIR}/demo-first-alert.png`, fullPage: true });

  // Each press logged one price change at its instant.
  expect((await changesAtLatestPoll(demo.url)).map((c) => c.kind)).toEqual(["price"]);
  const pricesBefore = await (await fetch(`${demo.url}/api/models/${KIMI}/providers`)).json();

  // Stopped and started again on the same folder: history and probe are kept, the drift goes on.
  await demo.stop();
  demo = await startDemo(dataDir);
  expect(demo.logs()).toContain("already holds the demo's history");
  await page.goto(`${demo.url}/models/${KIMI}`);
  await pressPollNow(page, demo.url);

  const afterRestart = await changesAtLatestPoll(demo.url);
  expect(afterRestart.map((c) => c.kind)).toEqual(["price"]); // one change, not a burst
  // The one price that moved moved from where the demo left it (a cent or two), not from the recording.
  const pricesAfter = await (await fetch(`${demo.url}/api/models/${KIMI}/providers`)).json();
  const key = (e: { tag: string; inputPricePerM: string | null; outputPricePerM: string | null }) => `${e.tag} ${e.inputPricePerM} ${e.outputPricePerM}`;
  const before = new Set((pricesBefore.endpoints as Parameters<typeof key>[0][]).map(key));
  const moved = (pricesAfter.endpoints as Parameters<typeof key>[0][]).filter((e) => !before.has(key(e)));
  expect(moved.map((e) => e.tag)).toEqual([afterRestart[0].tag]);
  await page.close();
});
