import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { openDatabase } from "../lib/db/engines";
import { generateDemoHistory, hasDemoModelPolls } from "../replica/demo-history";
import { focusDriftOnDemoView, seedDemoView, startDemoReplica } from "../replica/demo-live";
import { hasDemoProbe, runDemoProbe } from "../replica/demo-probe";
import type { Replica } from "../replica/server";
import { serverMallocEnv, serverNodeOptions } from "./start-options";

// `npm run demo`: the local OpenRouter replica plus the dashboard pointed at it, on an embedded
// database of its own (./data/demo) so demo data never mixes with real polls. The page labels
// everything it shows as demo data.
//
// On a new demo database, 30 days of history are generated first (replica/demo-history.ts: a
// price cut, a quantization switch, an outage and a new endpoint), and the replica then serves
// the state the history ends in and drifts a little on every poll (replica/drift.ts), so that
// "Poll now" brings changes. A fidelity probe of the demo model is then run by the real runner
// against the replica (replica/demo-probe.ts), so the page shows a finished probe, labelled demo.
// A saved view with its alerts on is seeded, and the replica's drift moves an endpoint it includes
// within any two polls (replica/demo-live.ts). A second start on the same database continues the
// drift from the prices and polls it stores.
const replicaPort = Number(process.env.REPLICA_PORT ?? 4010);
const port = process.env.PORT ?? "3000";
const dbDir = process.env.EMBEDDED_DB_DIR ?? "./data/demo";

const started = Date.now();
const opened = await openDatabase({ embeddedDir: dbDir });
let replica: Replica;
try {
  if (await hasDemoModelPolls(opened.db)) {
    console.log(`[demo] ${dbDir} already holds the demo's history; delete the folder to generate it again`);
  } else {
    console.log("[demo] generating 30 days of demo history (hourly polls, then every 5 minutes for the last 2 days)…");
    const result = await generateDemoHistory(opened.db);
    console.log(
      `[demo] ${result.polls} polls from ${result.from.toISOString()} written, ${result.changes} changes logged, ` +
        `${result.hourlyRows} hourly rows, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  replica = await startDemoReplica(opened.db, replicaPort);
  if (!(await hasDemoProbe(opened.db))) {
    const probeStarted = Date.now();
    console.log("[demo] running a fidelity probe of the demo model against the replica (demo data)…");
    const probe = await runDemoProbe(opened.db, replica.baseUrl);
    console.log(`[demo] probe ${probe.runId} ${probe.outcome}: ${probe.requests} requests in ${((Date.now() - probeStarted) / 1000).toFixed(1)} s`);
  }
  // After the probe, so the view's recorded answer already holds the probe's verdicts: its alerts
  // then start with the first poll's changes, not with the probe that ran before anyone looked.
  const viewSlug = await seedDemoView(opened.db);
  const focus = await focusDriftOnDemoView(opened.db, replica);
  console.log(`[demo] saved view "/v/${viewSlug}" has its alerts on; the drift moves one of its ${focus.length} included endpoints at least every other poll (see /notifications)`);
} finally {
  await opened.close(); // the embedded database belongs to one process: the server opens it next
}
console.log(`[demo] OpenRouter replica at ${replica.baseUrl} (drifting a little on every poll)`);

const env = {
  ...process.env,
  OPENROUTER_BASE_URL: replica.baseUrl,
  OPENROUTER_API_KEY: process.env.OPENROUTER_API_KEY ?? "demo-key-for-the-local-replica",
  // The replica's management API (its keys and 30 days of demo activity). Never a real management
  // key: the demo talks only to the replica, so its key controls may stay open without BASIC_AUTH.
  OPENROUTER_MANAGEMENT_KEY: "sk-or-v1-mgmt-demo-for-the-local-replica",
  ALLOW_KEY_CHANGES_WITHOUT_AUTH: "true",
  // A webhook receiver on this machine can be tried from /alerts (which says so); the demo only.
  ALLOW_PRIVATE_WEBHOOKS: "true",
  EMBEDDED_DB_DIR: dbDir,
  DATABASE_URL: "",
  POLL_INTERVAL_SECONDS: process.env.POLL_INTERVAL_SECONDS ?? "300",
  NEXT_TELEMETRY_DISABLED: "1",
  NODE_OPTIONS: serverNodeOptions({ NODE_OPTIONS: process.env.NODE_OPTIONS }), // npm start's heap limits for the embedded database
  ...serverMallocEnv({ ...process.env, DATABASE_URL: "" }),
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
