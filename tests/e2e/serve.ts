import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startReplica } from "../../replica/server";

// The server the browser tests talk to: the replica, and the production build on a fresh
// embedded database in a temporary folder (deleted on exit). Polls run only when a test asks.
const port = process.env.E2E_PORT ?? "3107";
const replicaPort = Number(process.env.E2E_REPLICA_PORT ?? 4017);
const dataDir = mkdtempSync(path.join(tmpdir(), "routeboard-e2e-"));
const replica = await startReplica(replicaPort);

const child = spawn("npx", ["next", "start", "-p", port, "-H", "127.0.0.1"], {
  stdio: "inherit",
  env: {
    ...process.env,
    OPENROUTER_BASE_URL: replica.baseUrl,
    OPENROUTER_API_KEY: "e2e-test-key-not-secret",
    EMBEDDED_DB_DIR: dataDir,
    DATABASE_URL: "",
    POLL_INTERVAL_SECONDS: "0",
    WATCHED_MODELS: "moonshotai/kimi-k2.5",
    NEXT_TELEMETRY_DISABLED: "1",
  },
});

const stop = async () => {
  child.kill("SIGTERM");
  await replica.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
child.on("exit", async (code) => {
  await replica.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
