import type { LedgerRecord, RunSummaryRecord } from "./ledger";

// What the ledger must show when a PostgreSQL server answered (see tests/ledger/check.ts):
//   - every integration test file that has a server half passed with nothing skipped or failed,
//     and created a scratch database on the server from its own code;
//   - the browser suite ran a PostgreSQL pass whose server (tests/e2e/serve.ts) used a scratch
//     database on the server, with nothing failed, and every file passed at least as many tests
//     as in the embedded pass;
//   - every test file on disk ran (unit and integration in vitest, every spec in both browser
//     passes), and nothing was skipped but the skips listed in EXPECTED_SKIPS: a stray `.only`,
//     `.skip` or `fixme` fails the check instead of shrinking both passes alike.

const NONE = { passed: 0, failed: 0, skipped: 0 };

/** The only skips a full run may have, per file and pass, each with the reason it is skipped there. */
export const EXPECTED_SKIPS: Record<string, { embedded?: number; postgres?: number; vitest?: number; why: string }> = {
  "tests/e2e/database-down.spec.ts": { embedded: 1, why: "a database that goes away mid-poll is a server's fault: the PostgreSQL pass runs it" },
  "tests/e2e/demo.spec.ts": { postgres: 1, why: "npm run demo always runs on the embedded engine: the embedded pass runs it" },
};

export interface FilesOnDisk {
  /** tests/unit/… and tests/integration/… test files. */
  vitest: string[];
  /** tests/e2e/….spec.ts files. */
  browser: string[];
}

/** Test files on disk that a pass did not run, and skips that EXPECTED_SKIPS does not list. */
export function completenessProblems(records: LedgerRecord[], onDisk: FilesOnDisk): string[] {
  const problems: string[] = [];
  const summaries = records.filter((r): r is RunSummaryRecord => r.kind === "run-summary");
  const passes: Array<{ name: "vitest" | "embedded" | "postgres"; label: string; files: string[]; summary?: RunSummaryRecord }> = [
    { name: "vitest", label: "vitest", files: onDisk.vitest, summary: summaries.find((s) => s.runner === "vitest") },
    { name: "embedded", label: "the embedded browser pass", files: onDisk.browser, summary: summaries.find((s) => s.runner === "playwright" && s.engine === "embedded") },
    { name: "postgres", label: "the PostgreSQL browser pass", files: onDisk.browser, summary: summaries.find((s) => s.runner === "playwright" && s.engine === "postgres") },
  ];
  for (const pass of passes) {
    if (!pass.summary) continue; // said by serverHalfProblems
    for (const file of pass.files) {
      const counts = pass.summary.files[file];
      if (!counts || counts.passed + counts.failed + counts.skipped === 0) problems.push(`${file}: not run by ${pass.label}`);
    }
    for (const [file, counts] of Object.entries(pass.summary.files)) {
      const expected = EXPECTED_SKIPS[file]?.[pass.name] ?? 0;
      if (counts.skipped !== expected) problems.push(`${file}: ${counts.skipped} skipped in ${pass.label}, ${expected} expected (tests/ledger/verdict.ts EXPECTED_SKIPS)`);
      if (counts.failed > 0 && pass.name !== "postgres") problems.push(`${file}: ${counts.failed} failed in ${pass.label}`);
    }
  }
  return problems;
}

/** What ran, for the closing lines of a CI log: each pass's files and tests, then "N passed, N failed, N skipped". */
export function closingLines(records: LedgerRecord[]): string[] {
  const summaries = records.filter((r): r is RunSummaryRecord => r.kind === "run-summary");
  const label = (s: RunSummaryRecord) => (s.runner === "vitest" ? "unit and integration (vitest)" : `browser, ${s.engine === "postgres" ? "PostgreSQL server" : "embedded engine"} (playwright)`);
  const totals = { passed: 0, failed: 0, skipped: 0 };
  const lines = summaries.map((s) => {
    const sum = { passed: 0, failed: 0, skipped: 0 };
    for (const c of Object.values(s.files)) {
      sum.passed += c.passed;
      sum.failed += c.failed;
      sum.skipped += c.skipped;
    }
    totals.passed += sum.passed;
    totals.failed += sum.failed;
    totals.skipped += sum.skipped;
    return `${label(s)}: ${Object.keys(s.files).length} files, ${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`;
  });
  return [...lines, `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`];
}

/** Everything that says the server half did not run in full; empty when it did. */
export function serverHalfProblems(records: LedgerRecord[], serverFiles: string[]): string[] {
  const problems: string[] = [];
  const scratchStacks = records.flatMap((r) => (r.kind === "scratch-database" ? [r.files] : []));
  const summaries = records.filter((r): r is RunSummaryRecord => r.kind === "run-summary");
  const createdFrom = (file: string) => scratchStacks.some((files) => files.includes(file));

  const vitest = summaries.find((s) => s.runner === "vitest");
  if (!vitest) problems.push("vitest wrote no summary: did it run?");
  for (const file of serverFiles) {
    const counts = vitest?.files[file];
    if (vitest && !counts) problems.push(`${file}: not run by vitest`);
    else if (counts && (counts.skipped > 0 || counts.failed > 0 || counts.passed === 0))
      problems.push(`${file}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (nothing may be skipped when a server answers)`);
    if (!createdFrom(file)) problems.push(`${file}: created no database on the PostgreSQL server (its server half did not run)`);
  }

  const embedded = summaries.find((s) => s.runner === "playwright" && s.engine === "embedded");
  const postgres = summaries.find((s) => s.runner === "playwright" && s.engine === "postgres");
  if (!embedded) problems.push("the browser tests' embedded pass wrote no summary");
  if (!postgres) problems.push("the browser tests' PostgreSQL pass (E2E_ENGINE=postgres) did not run");
  if (!createdFrom("tests/e2e/serve.ts")) problems.push("no browser-test server ran on the PostgreSQL server");
  if (embedded && postgres) {
    if (totalPassed(postgres) === 0) problems.push("the PostgreSQL pass passed no browser test");
    for (const file of new Set([...Object.keys(embedded.files), ...Object.keys(postgres.files)])) {
      const pg = postgres.files[file] ?? NONE;
      const emb = embedded.files[file] ?? NONE;
      if (pg.failed > 0) problems.push(`${file}: ${pg.failed} failed in the PostgreSQL pass`);
      // A test listed as the embedded pass's only (EXPECTED_SKIPS, e.g. the demo, always embedded)
      // counts as run for the comparison when it was skipped here; any other shortfall fails.
      const listedHere = Math.min(pg.skipped, EXPECTED_SKIPS[file]?.postgres ?? 0);
      if (pg.passed + listedHere < emb.passed) problems.push(`${file}: ${pg.passed} passed on PostgreSQL, ${emb.passed} on the embedded engine`);
    }
  }
  return problems;
}

export function totalPassed(summary: RunSummaryRecord | undefined): number {
  return Object.values(summary?.files ?? {}).reduce((n, c) => n + c.passed, 0);
}
