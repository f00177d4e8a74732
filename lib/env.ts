import "server-only";
import { z } from "zod";

// The one place that reads process.env. Everything else imports `env`.

/** A non-negative decimal kept as text, so that money and percentages never pass through a float. */
const decimalText = (example: string) => z.string().trim().regex(/^\d+(\.\d+)?$/, `must be a non-negative decimal: ${example}`);
const schema = z.object({
  DATABASE_URL: z.string().url().optional(),
  EMBEDDED_DB_DIR: z.string().min(1).default("./data/pglite"),
  OPENROUTER_BASE_URL: z.string().url().default("https://openrouter.ai/api/v1"),
  OPENROUTER_API_KEY: z.string().min(1).optional(),
  /** How long one request to OpenRouter may take before it counts as a timeout (and is retried). */
  OPENROUTER_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(15),
  WATCHED_MODELS: z.string().default("moonshotai/kimi-k2.5"),
  POLL_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(300),
  POLL_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(4),
  /** How long a poller's claim on a model lasts; a poller killed mid-cycle blocks that model this long. */
  POLL_LEASE_SECONDS: z.coerce.number().int().min(3).max(3600).default(300),
  CRON_SECRET: z.string().min(1).optional(),
  RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  UPTIME_THRESHOLD: z.coerce.number().min(0).max(100).default(95),
  /** "user:password": every page and API route (but /api/health) then asks for these. */
  BASIC_AUTH: z
    .string()
    .regex(/^[^:]+:.+$/, "must look like user:password")
    .optional(),
  /** An OpenRouter management key: key limits, emergency stop and activity (spend page "Keys"). Server only. */
  OPENROUTER_MANAGEMENT_KEY: z.string().min(1).optional(),
  /** Lets an unprotected dashboard (no BASIC_AUTH) change keys anyway; only on purpose. */
  ALLOW_KEY_CHANGES_WITHOUT_AUTH: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
  /** The dashboard's public address, for links in alert messages (a Slack message links back to its view). */
  PUBLIC_URL: z.string().url().default("http://localhost:3000"),
  /** Lets alert webhooks reach loopback, private and link-local addresses (tests, demo, a receiver on the LAN on purpose). */
  ALLOW_PRIVATE_WEBHOOKS: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
  /** Reconciliation flags a day whose views differ by more than this percentage of the larger one… */
  RECONCILE_TOLERANCE_PERCENT: decimalText("a percentage such as 1 or 0.5").refine((v) => Number(v) <= 100, "must be at most 100").default("1"),
  /** …or by more than this many dollars (either one is enough). */
  RECONCILE_TOLERANCE_USD: decimalText("an amount in USD such as 0.01").default("0.01"),
  /** Provenance: how long a pipeline may keep an allow-list it fetched (minutes); an endpoint excluded less than this before a generation makes it suspect, not excluded. */
  PROVENANCE_GRACE_MINUTES: z.coerce.number().int().min(0).max(10_080).default(60),
  /** Provenance enrichment: at most this many GET /generation lookups per second (OpenRouter rate-limits them). */
  GENERATION_LOOKUPS_PER_SECOND: z.coerce.number().min(0.1).max(100).default(5),
  /** …and a generation OpenRouter still answers 404 for after this many lookups (spaced 30 s, 1, 2, 4… min) is given up on. */
  GENERATION_LOOKUP_MAX_TRIES: z.coerce.number().int().min(1).max(20).default(6),
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
});

export type Env = z.infer<typeof schema>;

/** Validates settings (unset and empty ones take their defaults); throws naming every bad one. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const raw = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

export const env: Env = parseEnv(process.env);

export function watchedModelSeed(): string[] {
  return env.WATCHED_MODELS.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
