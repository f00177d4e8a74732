import "server-only";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient, type Prisma } from "./generated/client";
import { lockEmbeddedDir } from "./embedded-lock";
import { EMBEDDED_START_PARAMS, prepareEmbeddedDir } from "./embedded-template";

/**
 * How long a transaction may wait for a connection, and run, before it fails: Prisma's defaults
 * (2 s and 5 s) fail writes on a loaded 2-core machine (measured: a probe's answers refused after
 * 2 s of waiting, a snapshot's commit after 9 s). A writer that still fails retries or says so.
 */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 };
import { migrate, readMigrations, type Migration, type SqlConnection } from "./migrate";

// Opens the database Routeboard runs on: a PostgreSQL server when a URL is given, otherwise an
// embedded PostgreSQL (PGlite) in a folder, or in memory for "memory://". Migrations are applied
// before the client is handed out, on either engine. An embedded folder is locked to one process
// (see embedded-lock.ts).

export type Db = PrismaClient;

/**
 * The client or a transaction (`db.$transaction(async (tx) => ...)`): everything a read or a
 * write needs, but not `$transaction` itself. A function that takes it runs the same inside a
 * writer's transaction (seeing the rows written so far) as outside it, with no cast.
 */
export type DbOrTx = Prisma.TransactionClient;

export interface OpenedDb {
  db: Db;
  engine: "postgres" | "embedded";
  close(): Promise<void>;
}

export interface DbTarget {
  databaseUrl?: string;
  embeddedDir: string;
}

export async function openDatabase(target: DbTarget): Promise<OpenedDb> {
  const migrations = await readMigrations();
  if (target.databaseUrl) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      await migrate(pgConnection(client), migrations);
    } finally {
      await client.end();
    }
    const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: target.databaseUrl }), transactionOptions: TRANSACTION_OPTIONS });
    return { db, engine: "postgres", close: () => db.$disconnect() };
  }
  if (target.embeddedDir === "memory://") {
    return openPglite(await PGlite.create({ startParams: EMBEDDED_START_PARAMS }), migrations, async () => undefined);
  }
  const dir = path.resolve(target.embeddedDir);
  await mkdir(dir, { recursive: true });
  const unlock = await lockEmbeddedDir(dir); // before PGlite touches the folder
  try {
    await prepareEmbeddedDir(dir); // a new folder starts from the template, not from initdb (see embedded-template.ts)
    return await openPglite(await PGlite.create(dir, { startParams: EMBEDDED_START_PARAMS }), migrations, unlock);
  } catch (err) {
    await unlock().catch(() => undefined);
    throw err;
  }
}

async function openPglite(pglite: PGlite, migrations: Migration[], unlock: () => Promise<void>): Promise<OpenedDb> {
  try {
    await migrate(pgliteConnection(pglite), migrations);
  } catch (err) {
    await pglite.close().catch(() => undefined);
    throw err;
  }
  const db = new PrismaClient({ adapter: new PrismaPGlite(pglite), transactionOptions: TRANSACTION_OPTIONS });
  return {
    db,
    engine: "embedded",
    close: async () => {
      try {
        await db.$disconnect();
        await pglite.close();
      } finally {
        await unlock().catch(() => undefined);
      }
    },
  };
}

function pgConnection(client: pg.Client): SqlConnection {
  return {
    exec: async (sql) => {
      await client.query(sql);
    },
    query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
  };
}

function pgliteConnection(pglite: PGlite): SqlConnection {
  return {
    exec: async (sql) => {
      await pglite.exec(sql);
    },
    query: async <T>(sql: string, params?: unknown[]) => (await pglite.query<T>(sql, params)).rows,
  };
}
