import { defineConfig, devices } from "@playwright/test";

// Browser tests run Debian's Chromium (Playwright's own browser download is not reachable here)
// against a production build served by tests/e2e/serve.ts: the replica plus `next start` on a
// fresh embedded database.
// Overridable so that several checkouts can run their browser tests at once.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3107);
export const E2E_REPLICA_PORT = Number(process.env.E2E_REPLICA_PORT ?? 4017);

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  // A flaky test is fixed, not retried: none is, in CI or here.
  retries: 0,
  // A stray test.only would shrink both passes alike: refused under CI.
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The ledger reporter writes what ran (for `.ci/run`'s check that the PostgreSQL pass did).
  reporter: [["list"], ["./tests/ledger/playwright-reporter.ts"]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    ...devices["Desktop Chrome"],
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
      ],
    },
  },
  webServer: {
    command: `npx tsx --conditions=react-server tests/e2e/serve.ts`,
    url: `http://127.0.0.1:${E2E_PORT}/api/models`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: { E2E_PORT: String(E2E_PORT), E2E_REPLICA_PORT: String(E2E_REPLICA_PORT) },
    // SIGTERM, not Playwright's default SIGKILL, so serve.ts removes its database on the way out.
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});
