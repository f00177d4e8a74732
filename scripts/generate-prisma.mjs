// `prisma generate` without the native schema engine: the generator does not need it, but the
// CLI checks that an engine file exists, and the engine cannot be downloaded offline.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const anyExistingFile = fileURLToPath(import.meta.url);
execFileSync(process.execPath, ["node_modules/prisma/build/index.js", "generate"], {
  stdio: "inherit",
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: anyExistingFile, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
