import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { startReplica, type Replica, type ReplicaOptions } from "../../replica/server";
import { freePort } from "../helpers/ports";
import { freshDatabase } from "./database";
import { KEEP_ALIVE_ARGS } from "./keep-alive";

export { freePort };

// A second server for the access and secrets tests: the same production build, started with
// BASIC_AUTH, CRON_SECRET and a known fake OpenRouter key, its own replica and a fresh database on the suite's engine,
// and every line it logs kept for searching.

/** The fake key. package.json's test script also builds with it, so a key inlined at build time would show. */
export const FAKE_KEY = "sk-or-v1-routeboard-FAKE-leak-canary-7f3e9a1c5b";
/** A fake management key (the replica knows management keys by their prefix); the leak canary looks for it too. */
export const FAKE_MANAGEMENT_KEY = "sk-or-v1-mgmt-routeboard-FAKE-leak-canary-2c8d4e6f1a";
export const BASIC_USER = "team";
export const BASIC_PASSWORD = "correct horse battery";
export const CRON_SECRET = "cron-secret-for-tests-4d2b";

export interface SecuredServer {
  url: string;
  replica: Replica;
  logs(): string;
  stop(): Promise<void>;
  /** SIGKILL, as a crash or the OOM killer would: no shutdown code runs. Then its replica and own database go. */
  crash(): Promise<void>;
}

export async function startSecuredServer(overrides: Record<string, string> = {}, replicaOptions: ReplicaOptions = {}): Promise<SecuredServer> {
  const [port, replica] = await Promise.all([freePort(), startReplica(0, "127.0.0.1", replicaOptions)]);
  const database = await freshDatabase("secured");
  let log = "";
  const child: ChildProcess = spawn(
    process.execPath,
    [path.resolve("node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1", ...KEEP_ALIVE_ARGS],
    {
      env: {
        ...process.env,
        OPENROUTER_BASE_URL: replica.baseUrl,
        OPENROUTER_API_KEY: FAKE_KEY,
        BASIC_AUTH: `${BASIC_USER}:${BASIC_PASSWORD}`,
        CRON_SECRET,
        ...database.env,
        POLL_INTERVAL_SECONDS: "0",
        WATCHED_MODELS: "moonshotai/kimi-k2.5",
        NEXT_TELEMETRY_DISABLED: "1",
        ...overrides,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", (c: Buffer) => (log += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (log += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    // Up once it answers at all (a 503 from a server whose database is away counts).
    const ok = await fetch(`${url}/api/health`).then((r) => r.status === 200 || r.status === 503, () => false);
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`The secured server did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const end = async (signal: NodeJS.Signals) => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    await exited;
    await replica.close();
    await database.remove();
  };
  return {
    url,
    replica,
    logs: () => log,
    stop: () => end("SIGTERM"),
    crash: () => end("SIGKILL"),
  };
}
