import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type OpenedDb } from "@/lib/db/engines";

// Every integration test runs on the embedded engine, and also on a real PostgreSQL server when
// TEST_DATABASE_URL is set. Each test file gets a database of its own, dropped afterwards.

export interface TestEngine {
  name: "embedded" | "postgres";
  open(): Promise<OpenedDb>;
}

export const engines: TestEngine[] = [
  { name: "embedded", open: () => openDatabase({ embeddedDir: "memory://" }) },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: "postgres" as const, open: () => openScratchServerDb(process.env.TEST_DATABASE_URL as string) }]
    : []),
];

export async function openScratchServerDb(serverUrl: string): Promise<OpenedDb> {
  const name = `routeboard_test_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const opened = await openDatabase({ databaseUrl: url.toString(), embeddedDir: "unused" });
  return {
    ...opened,
    close: async () => {
      await opened.close();
      const admin2 = new pg.Client({ connectionString: serverUrl });
      await admin2.connect();
      await admin2.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin2.end();
    },
  };
}
