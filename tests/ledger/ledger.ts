import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";

// The test ledger: what really ran against the PostgreSQL server, written by the tests
// themselves, so that `.ci/run` can tell "the server half passed" from "the server half was
// skipped" (a skipped test exits 0 just like a passed one). Inactive unless ROUTEBOARD_TEST_LEDGER
// names a folder; `.ci/run` points it at a fresh one and checks it with tests/ledger/check.ts.

export const LEDGER_ENV = "ROUTEBOARD_TEST_LEDGER";

export interface ScratchDatabaseRecord {
  kind: "scratch-database";
  /** The test files (relative to the repo) on the call stack that created it, innermost first. */
  files: string[];
  pid: number;
}

export interface RunSummaryRecord {
  kind: "run-summary";
  runner: "vitest" | "playwright";
  /** Playwright: the engine of the pass (E2E_ENGINE); vitest: null. */
  engine: string | null;
  files: Record<string, { passed: number; failed: number; skipped: number }>;
}

/** How long each test that passed took, beside the timeout it ran under (tests/ledger/timeouts.ts). */
export interface TestTimesRecord {
  kind: "test-times";
  runner: "vitest" | "playwright";
  engine: string | null;
  tests: { file: string; name: string; durationMs: number; timeoutMs: number }[];
}

export type LedgerRecord = ScratchDatabaseRecord | RunSummaryRecord | TestTimesRecord;

export function ledgerDir(): string | null {
  return process.env[LEDGER_ENV] || null;
}

/** Every record in a ledger folder; throws when the folder has none. */
export function readLedger(dir: string): LedgerRecord[] {
  return readFileSync(path.join(dir, "ledger.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as LedgerRecord);
}

export function writeLedger(record: LedgerRecord): void {
  const dir = ledgerDir();
  if (!dir) return;
  appendFileSync(path.join(dir, "ledger.jsonl"), `${JSON.stringify(record)}\n`);
}

/** The test files (tests/integration/…, tests/e2e/…) on the current call stack, innermost first. */
export function testFilesOnStack(): string[] {
  const previousLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = previousLimit;
  const files = [...stack.matchAll(/tests\/(?:integration|e2e)\/[^\s:()]+?\.ts/g)].map((m) => m[0]);
  return [...new Set(files)];
}
