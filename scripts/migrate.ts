import { openDatabase } from "../lib/db/engines";

// `npm run db:migrate`: applies the committed migrations to DATABASE_URL, or to the embedded
// database when it is unset. The server does the same on start; this is for deploy scripts.
const opened = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  embeddedDir: process.env.EMBEDDED_DB_DIR || "./data/pglite",
});
console.log(`migrations applied (${opened.engine})`);
await opened.close();
