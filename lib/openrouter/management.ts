import { z } from "zod";
import { createOpenRouterRequest, type Fetched, type OpenRouterClientOptions } from "./client";
import { OpenRouterError } from "./errors";

// OpenRouter's management API (a management key): the account's API keys (/keys) and its daily
// activity (/activity). The same timeout, retries and typed errors as the rest of the client;
// creating a key is never retried (a retried POST could create two keys).

/** Money arrives as JSON numbers; keep their text so no float arithmetic touches it. */
const money = z.number().transform((n) => String(n));
const optionalMoney = z.number().nullish().transform((n) => (n === null || n === undefined ? null : String(n)));

export const managedKeySchema = z.looseObject({
  hash: z.string().min(1),
  name: z.string(),
  label: z.string().nullish(),
  disabled: z.boolean(),
  limit: optionalMoney,
  limit_remaining: optionalMoney,
  limit_reset: z.string().nullish(),
  include_byok_in_limit: z.boolean().nullish(),
  usage: money,
  usage_daily: optionalMoney,
  usage_weekly: optionalMoney,
  usage_monthly: optionalMoney,
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
});
export type ManagedKey = z.output<typeof managedKeySchema>;

const keyListSchema = z.looseObject({ data: z.array(managedKeySchema) });
const oneKeySchema = z.looseObject({ data: managedKeySchema });
/** The answer to POST /keys: the only time the key's secret is ever seen. */
const createdKeySchema = z.looseObject({ data: managedKeySchema, key: z.string().min(1) });
const deletedSchema = z.looseObject({ deleted: z.boolean() });

export const activityRowSchema = z.looseObject({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}/).transform((d) => d.slice(0, 10)),
  model: z.string(),
  model_permaslug: z.string().nullish(),
  endpoint_id: z.string(),
  provider_name: z.string(),
  usage: money,
  byok_usage_inference: optionalMoney,
  requests: z.number().int().nonnegative(),
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  reasoning_tokens: z.number().int().nonnegative().nullish(),
});
export type ActivityRow = z.output<typeof activityRowSchema>;
const activitySchema = z.looseObject({ data: z.array(activityRowSchema) });

export interface KeyChanges {
  name?: string;
  disabled?: boolean;
  /** USD as a decimal string, or null to remove the limit. */
  limit?: string | null;
  limit_reset?: "daily" | "weekly" | "monthly" | null;
}

export interface ManagementClient {
  listKeys(): Promise<Fetched<ManagedKey[]>>;
  getKey(hash: string): Promise<Fetched<ManagedKey>>;
  updateKey(hash: string, changes: KeyChanges): Promise<Fetched<ManagedKey>>;
  /** Returns the secret once; the caller must show it and forget it. */
  createKey(input: { name: string; limit: string | null }): Promise<Fetched<{ key: ManagedKey; secret: string }>>;
  deleteKey(hash: string): Promise<void>;
  activity(date?: string): Promise<Fetched<ActivityRow[]>>;
}

const HASH = /^[A-Za-z0-9_-]{1,128}$/;

function keyPath(hash: string): string {
  if (!HASH.test(hash)) throw new Error("A key hash has letters, digits, - and _ only");
  return `/keys/${hash}`;
}

/** OpenRouter takes the limit as a JSON number; a cent-exact decimal string converts without loss. */
function limitNumber(limit: string | null): number | null {
  return limit === null ? null : Number(limit);
}

export function createManagementClient(options: OpenRouterClientOptions & { apiKey: string }): ManagementClient {
  const request = createOpenRouterRequest(options);
  const unwrap = <T, U>(fetched: Fetched<T>, pick: (data: T) => U): Fetched<U> => ({ ...fetched, data: pick(fetched.data) });
  return {
    async listKeys() {
      // 100 keys a page; an account with more keys is read page by page.
      const all: ManagedKey[] = [];
      let last: Fetched<z.output<typeof keyListSchema>> | null = null;
      for (let offset = 0; offset < 10_000; offset += 100) {
        last = await request(`/keys?include_disabled=true&offset=${offset}`, keyListSchema);
        all.push(...last.data.data);
        if (last.data.data.length < 100) break;
      }
      return unwrap(last as Fetched<z.output<typeof keyListSchema>>, () => all);
    },
    async getKey(hash) {
      return unwrap(await request(keyPath(hash), oneKeySchema), (d) => d.data);
    },
    async updateKey(hash, changes) {
      const body = { ...changes, ...("limit" in changes ? { limit: limitNumber(changes.limit ?? null) } : {}) };
      return unwrap(await request(keyPath(hash), oneKeySchema, { method: "PATCH", body }), (d) => d.data);
    },
    async createKey({ name, limit }) {
      let created: Fetched<z.output<typeof createdKeySchema>>;
      try {
        created = await request("/keys", createdKeySchema, { method: "POST", body: { name, limit: limitNumber(limit) }, retry: false });
      } catch (err) {
        // A body that is not JSON is quoted in the error; here it may hold the new key's secret.
        if (err instanceof OpenRouterError && err.kind === "invalid_json") {
          throw new OpenRouterError("invalid_json", "The answer to POST /keys is not JSON", err.attempts, err.status);
        }
        throw err;
      }
      // The raw body holds the secret: it is dropped here so nothing can store or log it.
      return { ...unwrap(created, (d) => ({ key: d.data, secret: d.key })), raw: "" };
    },
    async deleteKey(hash) {
      await request(keyPath(hash), deletedSchema, { method: "DELETE" });
    },
    async activity(date) {
      if (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error("date must be YYYY-MM-DD");
      return unwrap(await request(date ? `/activity?date=${date}` : "/activity", activitySchema), (d) => d.data);
    },
  };
}
