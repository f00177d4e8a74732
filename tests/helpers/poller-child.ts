import { spawn, type ChildProcess } from "node:child_process";

// Poller processes for the multi-process tests (tests/integration/fixtures/poll-child.ts), and a
// wait for a condition.

export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Child {
  proc: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
}

export function spawnPoller(env: Record<string, string>): Child {
  const proc = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "tests/integration/fixtures/poll-child.ts"], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines: string[] = [];
  let buffer = "";
  proc.stdout?.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split("\n");
    buffer = parts.pop() ?? "";
    lines.push(...parts);
  });
  // "close", not "exit": by then every line the child wrote has been read.
  const exited = new Promise<number | null>((resolve) => proc.on("close", (code) => resolve(code)));
  return { proc, lines, exited };
}

export interface ChildResult {
  cycleId: number;
  models: Array<{ id: string; ok: boolean; skipped?: boolean; endpoints: number }>;
}
