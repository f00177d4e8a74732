import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { readLedger, type LedgerRecord, type RunSummaryRecord } from "./ledger";
import { closingLines, completenessProblems, serverHalfProblems } from "./verdict";

// Run by `.ci/run` after `npm test`: fails unless both halves of the tests (embedded engine and
// PostgreSQL server) really ran in full and passed (tests/ledger/verdict.ts says what that means).
// A skipped test, a missing TEST_DATABASE_URL or a pass that never started all exit 0; the ledger
// the tests wrote (tests/ledger/ledger.ts) says what ran. Its last lines say what ran.

const dir = process.argv[2];
if (!dir) throw new Error("usage: tsx tests/ledger/check.ts <ledger folder>");

let records: LedgerRecord[] = [];
try {
  records = readLedger(dir);
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

// Every test file the runners' include patterns take (vitest.config.ts, playwright.config.ts), in subfolders too.
const testFiles = (dir: string, suffix: string) =>
  (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith(suffix))
    .map((f) => `${dir}/${f.split(path.sep).join("/")}`);
const onDisk = { vitest: [...testFiles("tests/unit", ".test.ts"), ...testFiles("tests/integration", ".test.ts")], browser: testFiles("tests/e2e", ".spec.ts") };

const problems = [...serverHalfProblems(records, serverFiles), ...completenessProblems(records, onDisk)];
console.log(`\nWhat ran (test ledger ${dir}):\n  ${closingLines(records).slice(0, -1).join("\n  ")}`);
if (problems.length > 0) {
  console.error(`The suite did not run in full (both halves are required under CI):\n  - ${problems.join("\n  - ")}`);
  process.exit(1);
}
console.log(`Both halves ran in full: ${serverFiles.length} integration files on the PostgreSQL server, every spec in both browser passes.`);
console.log(closingLines(records).at(-1));
