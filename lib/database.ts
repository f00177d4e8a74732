import "server-only";
import { env, watchedModelSeed } from "./env";
import { seedWatchedModels } from "./watched-models";
import { openDatabase, type Db, type OpenedDb } from "./db/engines";

// One database per process (kept on globalThis so dev hot reloads reuse it).
const holder = globalThis as unknown as { __routeboardDb?: Promise<OpenedDb> };

export function getOpenedDb(): Promise<OpenedDb> {
  holder.__routeboardDb ??= openDatabase({ databaseUrl: env.DATABASE_URL, embeddedDir: env.EMBEDDED_DB_DIR })
    .then(async (opened) => {
      try {
        await seedWatchedModels(opened.db, watchedModelSeed());
      } catch (err) {
        await opened.close().catch(() => undefined); // frees an embedded folder's lock for the next try
        throw err;
      }
      return opened;
    })
    .catch((err) => {
      holder.__routeboardDb = undefined;
      throw err;
    });
  return holder.__routeboardDb;
}

export async function getDb(): Promise<Db> {
  return (await getOpenedDb()).db;
}
