import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";
import { writeLedger, type RunSummaryRecord, type TestTimesRecord } from "./ledger";

/** Writes how many tests of each file passed, failed and were skipped, and how long each took, into the test ledger. */
export default class LedgerReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const files: RunSummaryRecord["files"] = {};
    const times: TestTimesRecord["tests"] = [];
    for (const testModule of testModules) {
      const counts = { passed: 0, failed: 0, skipped: 0 };
      const file = path.relative(process.cwd(), testModule.moduleId);
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        const duration = test.diagnostic()?.duration;
        if (state === "passed" && duration !== undefined && test.options.timeout !== undefined) {
          times.push({ file, name: test.fullName, durationMs: Math.round(duration), timeoutMs: test.options.timeout });
        }
        if (state === "passed") counts.passed++;
        else if (state === "failed") counts.failed++;
        else counts.skipped++;
      }
      files[file] = counts;
    }
    writeLedger({ kind: "run-summary", runner: "vitest", engine: null, files });
    writeLedger({ kind: "test-times", runner: "vitest", engine: null, tests: times });
  }
}
