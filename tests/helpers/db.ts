import { openDatabase, type OpenedDb } from "../../lib/db/engines";
import { createScratchDatabase } from "./scratch";

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

/** A scratch database opened through the app's own opener (migrations applied); dropped on close. */
export async function openScratchServerDb(serverUrl: string): Promise<OpenedDb> {
  const scratch = await createScratchDatabase(serverUrl);
  const opened = await openDatabase({ databaseUrl: scratch.url, embeddedDir: "unused" });
  return {
    ...opened,
    close: async () => {
      await opened.close();
      await scratch.drop();
    },
  };
}
