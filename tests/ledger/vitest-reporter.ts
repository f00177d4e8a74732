import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";
import { writeLedger, type RunSummaryRecord } from "./ledger";

/** Writes how many tests of each file passed, failed and were skipped, into the test ledger. */
export default class LedgerReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const files: RunSummaryRecord["files"] = {};
    for (const testModule of testModules) {
      const counts = { passed: 0, failed: 0, skipped: 0 };
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") counts.passed++;
        else if (state === "failed") counts.failed++;
        else counts.skipped++;
      }
      files[path.relative(process.cwd(), testModule.moduleId)] = counts;
    }
    writeLedger({ kind: "run-summary", runner: "vitest", engine: null, files });
  }
}
