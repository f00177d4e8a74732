import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "server-only": path.resolve("tests/helpers/empty.ts"),
      "@": path.resolve("."),
    },
  },
  test: {
    // The ledger reporter writes what ran (for `.ci/run`'s check that the PostgreSQL half did).
    reporters: ["default", "./tests/ledger/vitest-reporter.ts"],
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: true,
    maxWorkers: 2,
  },
});
