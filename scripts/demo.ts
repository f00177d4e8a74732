import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { startReplica } from "../replica/server";

// `npm run demo`: the local OpenRouter replica plus the dashboard pointed at it, on an embedded
// database of its own (./data/demo) so demo data never mixes with real polls. The page labels
// everything it shows as demo data.
const replicaPort = Number(process.env.REPLICA_PORT ?? 4010);
const port = process.env.PORT ?? "3000";
const replica = await startReplica(replicaPort);
console.log(`[demo] OpenRouter replica at ${replica.baseUrl}`);

const env = {
  ...process.env,
  OPENROUTER_BASE_URL: replica.baseUrl,
  OPENROUTER_API_KEY: process.env.OPENROUTER_API_KEY ?? "demo-key-for-the-local-replica",
  // The replica's management API (its keys and 30 days of demo activity). Never a real management
  // key: the demo talks only to the replica, so its key controls may stay open without BASIC_AUTH.
  OPENROUTER_MANAGEMENT_KEY: "sk-or-v1-mgmt-demo-for-the-local-replica",
  ALLOW_KEY_CHANGES_WITHOUT_AUTH: "true",
  EMBEDDED_DB_DIR: process.env.EMBEDDED_DB_DIR ?? "./data/demo",
  DATABASE_URL: "",
  POLL_INTERVAL_SECONDS: process.env.POLL_INTERVAL_SECONDS ?? "60",
  NEXT_TELEMETRY_DISABLED: "1",
};

function run(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn("npx", ["next", ...args], { stdio: "inherit", env });
    child.on("exit", (code) => resolve(code ?? 1));
    process.on("SIGINT", () => child.kill("SIGINT"));
    process.on("SIGTERM", () => child.kill("SIGTERM"));
  });
}

if (!existsSync(".next/BUILD_ID")) {
  const built = await run(["build"]);
  if (built !== 0) process.exit(built);
}
console.log(`[demo] dashboard at http://localhost:${port} (demo data)`);
const code = await run(["start", "-p", port]);
await replica.close();
process.exit(code);
