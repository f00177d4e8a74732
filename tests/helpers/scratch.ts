import { randomBytes } from "node:crypto";
import pg from "pg";
import { testFilesOnStack, writeLedger } from "../ledger/ledger";

// A scratch database on a PostgreSQL server, by URL, for tests that connect to it from more than
// one client or process.
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createScratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  // Before any await, while the calling test file is still on the stack.
  writeLedger({ kind: "scratch-database", files: testFilesOnStack(), pid: process.pid });
  const name = `routeboard_test_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const admin2 = new pg.Client({ connectionString: serverUrl });
      await admin2.connect();
      await admin2.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin2.end();
    },
  };
}
