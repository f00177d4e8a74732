import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { LedgerRecord, RunSummaryRecord } from "./ledger";
import { serverHalfProblems, totalPassed } from "./verdict";

// Run by `.ci/run` after `npm test` when a PostgreSQL server answers: fails unless the server half
// of the tests really ran and passed (tests/ledger/verdict.ts says what that means). A skipped
// test, a missing TEST_DATABASE_URL or a pass that never started all exit 0; the ledger the tests
// wrote (tests/ledger/ledger.ts) says what ran.

const dir = process.argv[2];
if (!dir) throw new Error("usage: tsx tests/ledger/check.ts <ledger folder>");

let records: LedgerRecord[] = [];
try {
  records = readFileSync(path.join(dir, "ledger.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as LedgerRecord);
} catch {
  console.error(`No test ledger in ${dir}: the test suites wrote nothing.`);
  process.exit(1);
}

// An integration file has a server half when it runs on `engines` from tests/helpers/db.ts (the
// embedded engine and the server) or reads TEST_DATABASE_URL itself.
const serverFiles = readdirSync("tests/integration")
  .filter((f) => f.endsWith(".test.ts"))
  .map((f) => `tests/integration/${f}`)
  .filter((f) => {
    const source = readFileSync(f, "utf8");
    return /import \{[^}]*\bengines\b[^}]*\} from "\.\.\/helpers\/db"/.test(source) || source.includes("TEST_DATABASE_URL");
  });

const problems = serverHalfProblems(records, serverFiles);
if (problems.length > 0) {
  console.error(`The PostgreSQL half of the tests did not run in full:\n  - ${problems.join("\n  - ")}`);
  process.exit(1);
}
const pass = (engine: string) => records.find((r): r is RunSummaryRecord => r.kind === "run-summary" && r.runner === "playwright" && r.engine === engine);
console.log(
  `PostgreSQL half checked: ${serverFiles.length} integration files ran on the server; ${totalPassed(pass("postgres"))} browser tests passed on PostgreSQL (${totalPassed(pass("embedded"))} on the embedded engine).`,
);
