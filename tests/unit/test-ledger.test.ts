import { describe, expect, it } from "vitest";
import type { LedgerRecord, RunSummaryRecord } from "../ledger/ledger";
import { closingLines, completenessProblems, serverHalfProblems } from "../ledger/verdict";

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

  it("lets the PostgreSQL pass skip what EXPECTED_SKIPS lists as the embedded pass's only (the demo), and nothing more", () => {
    const DEMO = "tests/e2e/demo.spec.ts";
    const withDemo = (pgDemo: { passed: number; failed: number; skipped: number }) =>
      full.map((r) =>
        r.kind === "run-summary" && r.engine === "embedded"
          ? pass("embedded", { ...r.files, [DEMO]: ok(1) })
          : r.kind === "run-summary" && r.engine === "postgres"
            ? pass("postgres", { ...r.files, [DEMO]: pgDemo })
            : r,
      );
    expect(serverHalfProblems(withDemo({ passed: 0, failed: 0, skipped: 1 }), SERVER_FILES)).toEqual([]);
    // Not run at all in the PostgreSQL pass (no skip recorded): still a shortfall.
    expect(serverHalfProblems(withDemo({ passed: 0, failed: 0, skipped: 0 }), SERVER_FILES)).toEqual([
      `${DEMO}: 0 passed on PostgreSQL, 1 on the embedded engine`,
    ]);
  });

  it("fails when the PostgreSQL pass's server ran on the embedded engine", () => {
    const records = full.filter((r) => !(r.kind === "scratch-database" && r.files.includes("tests/e2e/serve.ts")));
    expect(serverHalfProblems(records, SERVER_FILES)).toEqual([expect.stringContaining("no browser-test server ran on the PostgreSQL server")]);
  });

  it("fails when nothing was written", () => {
    expect(serverHalfProblems([], SERVER_FILES).length).toBeGreaterThan(3);
  });
});

describe("the check that every test file ran, with no skip but the expected ones", () => {
  // The real file with an expected skip (tests/ledger/verdict.ts EXPECTED_SKIPS), and one without.
  const DOWN = "tests/e2e/database-down.spec.ts";
  const onDisk = { vitest: ["tests/unit/u.test.ts", "tests/integration/a.test.ts"], browser: ["tests/e2e/x.spec.ts", DOWN] };
  const records = (embedded: RunSummaryRecord["files"], postgres: RunSummaryRecord["files"], vitest: RunSummaryRecord["files"] = { "tests/unit/u.test.ts": ok(9), "tests/integration/a.test.ts": ok(4) }) => [
    vitestSummary(vitest),
    pass("embedded", embedded),
    pass("postgres", postgres),
  ];
  const complete = records({ "tests/e2e/x.spec.ts": ok(3), [DOWN]: { passed: 2, failed: 0, skipped: 1 } }, { "tests/e2e/x.spec.ts": ok(3), [DOWN]: ok(3) });

  it("passes a full run whose only skip is the listed one", () => {
    expect(completenessProblems(complete, onDisk)).toEqual([]);
  });

  it("fails when a stray .only left a spec file out of both passes", () => {
    const only = records({ [DOWN]: { passed: 2, failed: 0, skipped: 1 } }, { [DOWN]: ok(3) });
    expect(completenessProblems(only, onDisk)).toEqual([
      "tests/e2e/x.spec.ts: not run by the embedded browser pass",
      "tests/e2e/x.spec.ts: not run by the PostgreSQL browser pass",
    ]);
  });

  it("fails on a skip nobody listed, in either pass, and on a listed skip that did not happen", () => {
    const skipped = records({ "tests/e2e/x.spec.ts": { passed: 2, failed: 0, skipped: 1 }, [DOWN]: ok(3) }, { "tests/e2e/x.spec.ts": { passed: 2, failed: 0, skipped: 1 }, [DOWN]: ok(3) });
    expect(completenessProblems(skipped, onDisk)).toEqual([
      "tests/e2e/x.spec.ts: 1 skipped in the embedded browser pass, 0 expected (tests/ledger/verdict.ts EXPECTED_SKIPS)",
      `${DOWN}: 0 skipped in the embedded browser pass, 1 expected (tests/ledger/verdict.ts EXPECTED_SKIPS)`,
      "tests/e2e/x.spec.ts: 1 skipped in the PostgreSQL browser pass, 0 expected (tests/ledger/verdict.ts EXPECTED_SKIPS)",
    ]);
  });

  it("fails when vitest left out a unit or integration file, or skipped a test", () => {
    const partial = records({ "tests/e2e/x.spec.ts": ok(3), [DOWN]: { passed: 2, failed: 0, skipped: 1 } }, { "tests/e2e/x.spec.ts": ok(3), [DOWN]: ok(3) }, { "tests/integration/a.test.ts": { passed: 3, failed: 0, skipped: 1 } });
    expect(completenessProblems(partial, onDisk)).toEqual([
      "tests/unit/u.test.ts: not run by vitest",
      "tests/integration/a.test.ts: 1 skipped in vitest, 0 expected (tests/ledger/verdict.ts EXPECTED_SKIPS)",
    ]);
  });

  it("closes with each pass's counts and one line a CI log reader can take in at a glance", () => {
    expect(closingLines(complete)).toEqual([
      "unit and integration (vitest): 2 files, 13 passed, 0 failed, 0 skipped",
      "browser, embedded engine (playwright): 2 files, 5 passed, 0 failed, 1 skipped",
      "browser, PostgreSQL server (playwright): 2 files, 6 passed, 0 failed, 0 skipped",
      "24 passed, 0 failed, 1 skipped",
    ]);
  });
});
