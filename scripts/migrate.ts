import nextEnv from "@next/env";
import { openDatabase } from "../lib/db/engines";

// `npm run db:migrate`: applies the committed migrations to DATABASE_URL, or to the embedded
// database when it is unset. The server does the same on start; this is for deploy scripts.
// It reads the same .env files as the server (through Next's own loader), so both open the same
// database; while a server holds an embedded folder, this is refused rather than run beside it.
nextEnv.loadEnvConfig(process.cwd());
const opened = await openDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  embeddedDir: process.env.EMBEDDED_DB_DIR || "./data/pglite",
});
console.log(`migrations applied (${opened.engine})`);
await opened.close();
