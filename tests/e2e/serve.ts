import { spawn } from "node:child_process";
import { startReplica } from "../../replica/server";
import { serverMallocEnv, serverNodeOptions } from "../../scripts/start-options";
import { KEEP_ALIVE_ARGS } from "./keep-alive";
import { E2E_ENGINE, freshDatabase } from "./database";

// The server the browser tests talk to: the replica, and the production build on a fresh
// database (embedded in a temporary folder, or a scratch database on the PostgreSQL server with
// E2E_ENGINE=postgres), removed on exit. Polls run only when a test asks.
const port = process.env.E2E_PORT ?? "3107";
const replicaPort = Number(process.env.E2E_REPLICA_PORT ?? 4017);
const database = await freshDatabase("e2e");
const replica = await startReplica(replicaPort);
console.log(`[e2e] the server runs on the ${E2E_ENGINE} database`);

const child = spawn("npx", ["next", "start", "-p", port, "-H", "127.0.0.1", ...KEEP_ALIVE_ARGS], {
  stdio: "inherit",
  env: {
    ...process.env,
    OPENROUTER_BASE_URL: replica.baseUrl,
    OPENROUTER_API_KEY: "e2e-test-key-not-secret",
    ...database.env,
    POLL_INTERVAL_SECONDS: "0",
    OPENROUTER_TIMEOUT_SECONDS: "2", // so a test of OpenRouter hanging takes seconds, not a minute
    WATCHED_MODELS: "moonshotai/kimi-k2.5",
    // Alert receivers in the tests listen on 127.0.0.1; links in messages point at this server.
    ALLOW_PRIVATE_WEBHOOKS: "true",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_OPTIONS: serverNodeOptions({ ...process.env, ...database.env }), // the heap limits npm start gives the server on this engine
    ...serverMallocEnv({ ...process.env, ...database.env }),
  },
});

// One shutdown, whichever comes first (Playwright's SIGTERM, or the server exiting): the server
// stopped, then the replica and the database removed, then exit.
let shuttingDown: Promise<void> | null = null;
function shutDown(code: number): Promise<void> {
  shuttingDown ??= (async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    await replica.close().catch(() => undefined);
    await database.remove().catch((err) => console.error(`[e2e] could not remove the test database: ${(err as Error).message}`));
    process.exit(code);
  })();
  return shuttingDown;
}
process.on("SIGINT", () => void shutDown(0));
process.on("SIGTERM", () => void shutDown(0));
child.on("exit", (code) => void shutDown(code ?? 0));
