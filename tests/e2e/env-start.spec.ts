import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { until } from "../helpers/poller-child";
import { freePort } from "./secured-server";

// lib/env.ts at start: the production server started with bad settings says, as it starts, which
// variables are wrong and why, one line each (each message is pinned in tests/unit/env.test.ts).

test("a server started with bad settings names each bad variable at start", async () => {
  const port = await freePort();
  const folder = mkdtempSync(path.join(tmpdir(), "routeboard-env-"));
  let log = "";
  const child = spawn(process.execPath, [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...process.env, POLL_CONCURRENCY: "0", BASIC_AUTH: "team", OPENROUTER_TIMEOUT_SECONDS: "fifteen", EMBEDDED_DB_DIR: folder, DATABASE_URL: "", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (c: Buffer) => (log += c.toString()));
  child.stderr.on("data", (c: Buffer) => (log += c.toString()));
  try {
    await until("the server to report its settings", () => log.includes("Invalid environment:"), 30_000);
    await until("the whole report", () => log.includes("BASIC_AUTH: must look like user:password"), 5_000);
    expect(log).toContain(
      [
        "Invalid environment:",
        "  OPENROUTER_TIMEOUT_SECONDS: Invalid input: expected number, received NaN",
        "  POLL_CONCURRENCY: Too small: expected number to be >=1",
        "  BASIC_AUTH: must look like user:password",
      ].join("\n"),
    );
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    rmSync(folder, { recursive: true, force: true });
  }
});
