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
    setupFiles: ["tests/helpers/one-query-at-a-time.ts"],
    // About 2-3x the longest a test took beside a second full CI run, never under 20 s
    // (tests/ledger/timeouts.ts prints the table; docs/testing.md says the rule). Tests that need
    // longer say so themselves.
    testTimeout: 20_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: true,
    maxWorkers: 2,
  },
});
