import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";

// lib/env.ts: the settings the server reads at start, each given a bad value. The error names the
// variable and says what is wrong with it, one line per problem, and nothing else.

const BAD: Array<[name: string, value: string, says: string]> = [
  ["DATABASE_URL", "not a url", "Invalid URL"],
  ["OPENROUTER_BASE_URL", "openrouter.ai/api/v1", "Invalid URL"],
  ["OPENROUTER_TIMEOUT_SECONDS", "0", "Too small: expected number to be >=1"],
  ["OPENROUTER_TIMEOUT_SECONDS", "fifteen", "Invalid input: expected number, received NaN"],
  ["POLL_INTERVAL_SECONDS", "-5", "Too small: expected number to be >=0"],
  ["POLL_INTERVAL_SECONDS", "2.5", "Invalid input: expected int, received number"],
  ["POLL_CONCURRENCY", "17", "Too big: expected number to be <=16"],
  ["POLL_LEASE_SECONDS", "2", "Too small: expected number to be >=3"],
  ["RETENTION_DAYS", "0", "Too small: expected number to be >=1"],
  ["UPTIME_THRESHOLD", "101", "Too big: expected number to be <=100"],
  ["BASIC_AUTH", "team", "must look like user:password"],
  ["ALLOW_KEY_CHANGES_WITHOUT_AUTH", "yes", 'Invalid option: expected one of "true"|"false"'],
  ["PUBLIC_URL", "dashboard.example", "Invalid URL"],
  ["ALLOW_PRIVATE_WEBHOOKS", "1", 'Invalid option: expected one of "true"|"false"'],
  ["RECONCILE_TOLERANCE_USD", "$0.01", "must be a non-negative decimal: an amount in USD such as 0.01"],
  ["NODE_ENV", "staging", 'Invalid option: expected one of "development"|"production"|"test"'],
];

describe("the environment, read once at start", () => {
  it.each(BAD)("%s=%s is refused with an Error whose one line names it: %s", (name, value, says) => {
    expect(() => parseEnv({ [name]: value })).toThrow(new Error(`Invalid environment:\n  ${name}: ${says}`));
  });

  it("names every bad setting at once, and takes an empty one as unset", () => {
    expect(() => parseEnv({ POLL_CONCURRENCY: "0", BASIC_AUTH: "team", PUBLIC_URL: "" })).toThrow(
      new Error("Invalid environment:\n  POLL_CONCURRENCY: Too small: expected number to be >=1\n  BASIC_AUTH: must look like user:password"),
    );
  });
});
