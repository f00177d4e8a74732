import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createScratchDatabase } from "../helpers/scratch";

// Which database the browser tests' servers run on. `npm test` runs the browser suite on the
// embedded engine, then again with E2E_ENGINE=postgres on a scratch database of the PostgreSQL
// server in TEST_DATABASE_URL (when one is configured), so every page and API test holds on both.

export type E2eEngine = "embedded" | "postgres";

export const E2E_ENGINE: E2eEngine = process.env.E2E_ENGINE === "postgres" ? "postgres" : "embedded";

export interface TestDatabase {
  /** The environment a server needs to use it. */
  env: { EMBEDDED_DB_DIR: string; DATABASE_URL: string };
  remove(): Promise<void>;
}

/** A fresh, empty database for one server process, on the suite's engine. */
export async function freshDatabase(label: string): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `routeboard-${label}-`));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (E2E_ENGINE === "embedded") {
    return { env: { EMBEDDED_DB_DIR: dataDir, DATABASE_URL: "" }, remove: async () => removeDir() };
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("E2E_ENGINE=postgres needs TEST_DATABASE_URL (a PostgreSQL server to make scratch databases on)");
  const scratch = await createScratchDatabase(serverUrl);
  return {
    env: { EMBEDDED_DB_DIR: dataDir, DATABASE_URL: scratch.url },
    remove: async () => {
      removeDir();
      await scratch.drop();
    },
  };
}
