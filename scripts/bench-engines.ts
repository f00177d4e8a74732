import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type OpenedDb } from "../lib/db/engines";
import { openScratchServerDb } from "../tests/helpers/db";

// What every database benchmark does around its own measurement: run it on a fresh embedded
// folder, then on a scratch database of the PostgreSQL server when one is named (DATABASE_URL or
// TEST_DATABASE_URL), print the report and write it under bench/. What the file holds from the
// line HISTORY_MARKER on (measurements written up by hand: before and after a change, ten million
// records) is kept below the new report.

export const HISTORY_MARKER = "<!-- Written up by hand below this line: the bench keeps it. -->";

export const benchServerUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || "";
/** BENCH_ENGINES=server or =embedded runs one engine only (a large provenance run on the server alone). */
const only = process.env.BENCH_ENGINES?.trim() ?? "";
if (only && only !== "server" && only !== "embedded") throw new Error(`BENCH_ENGINES must be "server" or "embedded" (or unset for both), not "${only}"`);
if (only === "server" && !benchServerUrl) throw new Error("BENCH_ENGINES=server needs DATABASE_URL or TEST_DATABASE_URL");

export async function benchOnEngines<R>(options: {
  name: string;
  runOn: (engine: string, opened: OpenedDb) => Promise<R>;
  report: (results: R[]) => string;
  /** Where the report goes, e.g. "bench/results.md". */
  output: string;
}): Promise<void> {
  const results: R[] = [];
  if (only !== "server") {
    const dir = mkdtempSync(path.join(os.tmpdir(), `routeboard-${options.name}-`));
    try {
      const embedded = await openDatabase({ embeddedDir: dir });
      try {
        results.push(await options.runOn("embedded (PGlite)", embedded));
      } finally {
        await embedded.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (benchServerUrl && only !== "embedded") {
    const server = await openScratchServerDb(benchServerUrl);
    try {
      results.push(await options.runOn("PostgreSQL server", server));
    } finally {
      await server.close();
    }
  } else {
    console.log(`[${options.name}] DATABASE_URL / TEST_DATABASE_URL not set: the PostgreSQL server is skipped.`);
  }
  const markdown = options.report(results);
  console.log("\n" + markdown);
  const before = existsSync(options.output) ? readFileSync(options.output, "utf8") : "";
  const history = before.includes(HISTORY_MARKER) ? before.slice(before.indexOf(HISTORY_MARKER)) : "";
  writeFileSync(options.output, markdown + "\n" + (history ? `\n${history}` : ""));
  console.log(`\nwritten to ${options.output}`);
}
