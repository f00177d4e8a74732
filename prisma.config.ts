// Prisma CLI configuration. Only `prisma generate` is used here (see README: migrations are
// applied by lib/db/migrate.ts because the CLI's migrate needs a native engine).
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
