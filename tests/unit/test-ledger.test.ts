import { describe, expect, it } from "vitest";
import type { LedgerRecord, RunSummaryRecord } from "../ledger/ledger";
import { serverHalfProblems } from "../ledger/verdict";

// `.ci/run`'s check that the PostgreSQL half of the tests ran: each way of not running it fails.

const SERVER_FILES = ["tests/integration/a.test.ts", "tests/integration/b.test.ts"];
const ok = (passed: number) => ({ passed, failed: 0, skipped: 0 });

function vitestSummary(files: RunSummaryRecord["files"]): RunSummaryRecord {
  return { kind: "run-summary", runner: "vitest", engine: null, files };
}
function pass(engine: "embedded" | "postgres", files: RunSummaryRecord["files"]): RunSummaryRecord {
  return { kind: "run-summary", runner: "playwright", engine, files };
}
const scratch = (...files: string[]): LedgerRecord => ({ kind: "scratch-database", files, pid: 1 });

const full: LedgerRecord[] = [
  scratch("tests/integration/a.test.ts"),
  scratch("tests/integration/b.test.ts"),
  vitestSummary({ "tests/integration/a.test.ts": ok(4), "tests/integration/b.test.ts": ok(2), "tests/unit/u.test.ts": ok(9) }),
  pass("embedded", { "tests/e2e/x.spec.ts": ok(3), "tests/e2e/down.spec.ts": { passed: 0, failed: 0, skipped: 1 } }),
  scratch("tests/e2e/database.ts", "tests/e2e/serve.ts"),
  pass("postgres", { "tests/e2e/x.spec.ts": ok(3), "tests/e2e/down.spec.ts": ok(1) }),
];

describe("the check that the PostgreSQL half of the tests ran", () => {
  it("passes a full run", () => {
    expect(serverHalfProblems(full, SERVER_FILES)).toEqual([]);
  });

  it("fails when an integration file's server tests were skipped", () => {
    const records = full.map((r) =>
      r.kind === "run-summary" && r.runner === "vitest"
        ? vitestSummary({ ...r.files, "tests/integration/b.test.ts": { passed: 2, failed: 0, skipped: 2 } })
        : r,
    );
    expect(serverHalfProblems(records, SERVER_FILES)).toEqual([expect.stringContaining("b.test.ts: 2 passed, 0 failed, 2 skipped")]);
  });

  it("fails when an integration file never created a database on the server (TEST_DATABASE_URL unset for vitest)", () => {
    const records = full.filter((r) => !(r.kind === "scratch-database" && r.files.includes("tests/integration/a.test.ts")));
    expect(serverHalfProblems(records, SERVER_FILES)).toEqual([expect.stringContaining("a.test.ts: created no database")]);
  });

  it("fails when the browser tests' PostgreSQL pass did not run", () => {
    const records = full.filter((r) => !(r.kind === "run-summary" && r.engine === "postgres") && !(r.kind === "scratch-database" && r.files.includes("tests/e2e/serve.ts")));
    expect(serverHalfProblems(records, SERVER_FILES)).toEqual([
      expect.stringContaining("PostgreSQL pass (E2E_ENGINE=postgres) did not run"),
      expect.stringContaining("no browser-test server ran on the PostgreSQL server"),
    ]);
  });

  it("fails when the PostgreSQL pass skipped tests the embedded pass ran", () => {
    const records = full.map((r) => (r.kind === "run-summary" && r.engine === "postgres" ? pass("postgres", { ...r.files, "tests/e2e/x.spec.ts": { passed: 1, failed: 0, skipped: 2 } }) : r));
    expect(serverHalfProblems(records, SERVER_FILES)).toEqual([expect.stringContaining("x.spec.ts: 1 passed on PostgreSQL, 3 on the embedded engine")]);
  });

  it("fails when the PostgreSQL pass's server ran on the embedded engine", () => {
    const records = full.filter((r) => !(r.kind === "scratch-database" && r.files.includes("tests/e2e/serve.ts")));
    expect(serverHalfProblems(records, SERVER_FILES)).toEqual([expect.stringContaining("no browser-test server ran on the PostgreSQL server")]);
  });

  it("fails when nothing was written", () => {
    expect(serverHalfProblems([], SERVER_FILES).length).toBeGreaterThan(3);
  });
});
