import type { LedgerRecord, RunSummaryRecord } from "./ledger";

// What the ledger must show when a PostgreSQL server answered (see tests/ledger/check.ts):
//   - every integration test file that has a server half passed with nothing skipped or failed,
//     and created a scratch database on the server from its own code;
//   - the browser suite ran a PostgreSQL pass whose server (tests/e2e/serve.ts) used a scratch
//     database on the server, with nothing failed, and every file passed at least as many tests
//     as in the embedded pass.

const NONE = { passed: 0, failed: 0, skipped: 0 };

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
      if (pg.passed < emb.passed) problems.push(`${file}: ${pg.passed} passed on PostgreSQL, ${emb.passed} on the embedded engine`);
    }
  }
  return problems;
}

export function totalPassed(summary: RunSummaryRecord | undefined): number {
  return Object.values(summary?.files ?? {}).reduce((n, c) => n + c.passed, 0);
}
