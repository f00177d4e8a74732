import path from "node:path";
import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";
import { writeLedger, type RunSummaryRecord, type TestTimesRecord } from "./ledger";

/** Writes how many browser tests of each file passed, failed and were skipped, into the test ledger. */
export default class LedgerReporter implements Reporter {
  private readonly files: RunSummaryRecord["files"] = {};
  private readonly times: TestTimesRecord["tests"] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    // With retries at 0 every test ends once; a retried test would count each attempt.
    const file = path.relative(process.cwd(), test.location.file);
    const counts = (this.files[file] ??= { passed: 0, failed: 0, skipped: 0 });
    if (result.status === "passed") {
      counts.passed++;
      // The timeout the test ran under (test.setTimeout and test.slow() included).
      this.times.push({ file, name: test.titlePath().slice(1).join(" › "), durationMs: result.duration, timeoutMs: test.timeout });
    }
    else if (result.status === "skipped") counts.skipped++;
    else counts.failed++;
  }

  onEnd(): void {
    const engine = process.env.E2E_ENGINE === "postgres" ? "postgres" : "embedded";
    writeLedger({ kind: "run-summary", runner: "playwright", engine, files: this.files });
    writeLedger({ kind: "test-times", runner: "playwright", engine, tests: this.times });
  }
}
