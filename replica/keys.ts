import { createHash, randomBytes } from "node:crypto";
import Decimal from "decimal.js";
import { glm5 } from "./data/glm-5";
import { kimiK25, type ModelSeed, type ProviderSeed } from "./data/kimi-k2.5";

// The replica's account: API keys managed through a management key (GET/POST /keys,
// GET/PATCH/DELETE /keys/{hash}), the account's daily activity (GET /activity), and a minimal
// POST /chat/completions that charges the calling key and refuses it past its limit or while it is
// disabled, as OpenRouter does. All money is kept as decimals and sent as JSON numbers.
//
// A bearer token is a management key when it starts with MANAGEMENT_KEY_PREFIX (OpenRouter's
// management keys look like any other key; the replica needs a way to tell them apart).
// Merge point: the fidelity probe adds its own POST /chat/completions; whichever lands second
// should call chargeChatCompletion() below so that usage counts against the calling key.

export const MANAGEMENT_KEY_PREFIX = "sk-or-v1-mgmt-";
/** The seeded pipeline key's secret, so that a demo or a test can call chat completions with it. */
export const SEEDED_PIPELINE_SECRET = "sk-or-v1-replica-pipeline-0000000000000001";

/** A seeded key whose $5 limit resets daily (OpenRouter's limit_reset), for tests of enforcing a budget on it. */
export const SEEDED_DAILY_SECRET = "sk-or-v1-replica-nightly-000000000000000003";

export interface ReplicaKey {
  hash: string;
  secret: string;
  name: string;
  disabled: boolean;
  limit: Decimal | null;
  limitReset: "daily" | "weekly" | "monthly" | null;
  includeByokInLimit: boolean;
  usage: Decimal;
  /** The part of usage spent before today (seeded history): the daily/weekly/monthly windows leave it out. */
  historicUsage: Decimal;
  createdAt: string;
  updatedAt: string | null;
}

export interface ActivityRow {
  date: string;
  model: string;
  model_permaslug: string;
  endpoint_id: string;
  provider_name: string;
  usage: Decimal;
  byok_usage_inference: Decimal;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
  reasoning_tokens: number;
}

/**
 * How the seeded activity history bills: "recorded" (the default: Kimi K2.5 at four providers, input
 * a little under its listed price, as cache hits make it) or "list" (exactly the listed prices, at
 * five providers, with GLM-5 served at two of them and an unwatched model at one: what a check of
 * "actual against listed" must answer 100% for).
 */
export type ActivityBilling = "recorded" | "list";

export interface AccountState {
  keys: ReplicaKey[];
  activityBilling: ActivityBilling;
  /** Chat completions served today (UTC), by day and endpoint: they join the seeded history. */
  liveActivity: ActivityRow[];
}

const DAY = 86_400_000;

function hashOf(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

function label(secret: string): string {
  return `${secret.slice(0, 12)}...${secret.slice(-3)}`;
}

export function freshAccount(activityBilling: ActivityBilling = "recorded"): AccountState {
  const createdAt = "2026-10-01T09:00:00.000Z";
  const seeded = (secret: string, name: string, usage: string, limit: string | null, limitReset: ReplicaKey["limitReset"] = null): ReplicaKey => ({
    hash: hashOf(secret),
    secret,
    name,
    disabled: false,
    limit: limit === null ? null : new Decimal(limit),
    limitReset,
    includeByokInLimit: false,
    usage: new Decimal(usage),
    historicUsage: new Decimal(usage),
    createdAt,
    updatedAt: null,
  });
  return {
    keys: [
      seeded(SEEDED_PIPELINE_SECRET, "Batch pipeline", "41.37", null),
      seeded("sk-or-v1-replica-notebook-00000000000000002", "Research notebook", "3.125", "20"),
      // $5 a day: $12.40 spent on earlier days does not count against today's limit.
      seeded(SEEDED_DAILY_SECRET, "Nightly evals", "12.40", "5", "daily"),
    ],
    liveActivity: [],
    activityBilling,
  };
}

/**
 * What counts against the key's limit, as OpenRouter documents limit_reset: with a reset, the usage
 * of the current day, week or month (UTC); without one, all the key's usage. The replica spends only
 * "today", so every window holds what was spent since it started and none of the seeded history.
 */
function usageAgainstLimit(key: ReplicaKey): Decimal {
  return key.limitReset === null ? key.usage : key.usage.minus(key.historicUsage);
}

export function keyJson(key: ReplicaKey) {
  const usage = key.usage.toNumber();
  return {
    hash: key.hash,
    name: key.name,
    label: label(key.secret),
    disabled: key.disabled,
    limit: key.limit === null ? null : key.limit.toNumber(),
    limit_remaining: key.limit === null ? null : Decimal.max(0, key.limit.minus(usageAgainstLimit(key))).toNumber(),
    limit_reset: key.limitReset,
    include_byok_in_limit: key.includeByokInLimit,
    usage,
    // The replica spends only "today": every window is what was spent since it started.
    usage_daily: key.usage.minus(key.historicUsage).toNumber(),
    usage_weekly: key.usage.minus(key.historicUsage).toNumber(),
    usage_monthly: key.usage.minus(key.historicUsage).toNumber(),
    created_at: key.createdAt,
    updated_at: key.updatedAt,
  };
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

const error = (status: number, message: string): ApiAnswer => ({ status, body: { error: { code: status, message } } });

function bearer(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match ? match[1] : null;
}

/** Whether a chat request's key is one of this account's API keys (or a management key), which
 * the account charges and limits; other keys (the app's own in tests) are not tracked. */
export function isAccountChat(account: AccountState, authorization: string | undefined): boolean {
  const secret = bearer(authorization);
  return secret !== null && (secret.startsWith(MANAGEMENT_KEY_PREFIX) || account.keys.some((k) => k.secret === secret));
}

export function isManagementKey(authorization: string | undefined): boolean {
  return bearer(authorization)?.startsWith(MANAGEMENT_KEY_PREFIX) ?? false;
}

const LIMIT_RESETS = new Set(["daily", "weekly", "monthly"]);

/** Reads limit fields of a POST or PATCH body; a string is an error naming the field. */
function applyKeyFields(key: ReplicaKey, body: Record<string, unknown>): string | null {
  if ("name" in body) {
    if (typeof body.name !== "string" || !body.name.trim()) return "name must be a non-empty string";
    key.name = body.name;
  }
  if ("limit" in body) {
    if (body.limit === null) key.limit = null;
    else if (typeof body.limit === "number" && Number.isFinite(body.limit) && body.limit >= 0) key.limit = new Decimal(String(body.limit));
    else return "limit must be a non-negative number or null";
  }
  if ("limit_reset" in body) {
    if (body.limit_reset !== null && !LIMIT_RESETS.has(String(body.limit_reset))) return "limit_reset must be daily, weekly, monthly or null";
    key.limitReset = body.limit_reset as ReplicaKey["limitReset"];
  }
  if ("disabled" in body) {
    if (typeof body.disabled !== "boolean") return "disabled must be a boolean";
    key.disabled = body.disabled;
  }
  if ("include_byok_in_limit" in body) {
    if (typeof body.include_byok_in_limit !== "boolean") return "include_byok_in_limit must be a boolean";
    key.includeByokInLimit = body.include_byok_in_limit;
  }
  return null;
}

/**
 * Answers /api/v1/keys, /api/v1/keys/{hash} and /api/v1/activity, or returns null for any other
 * path. Faults were already applied by the server before this runs.
 */
export function handleAccountRequest(
  account: AccountState,
  method: string,
  path: string,
  query: URLSearchParams,
  authorization: string | undefined,
  body: Record<string, unknown>,
  now = new Date(),
): ApiAnswer | null {
  const isKeys = path === "/api/v1/keys" || path.startsWith("/api/v1/keys/");
  const isActivity = path === "/api/v1/activity";
  if (!isKeys && !isActivity) return null;
  if (!bearer(authorization)) return error(401, "No auth credentials found");
  if (!isManagementKey(authorization)) return error(401, "Only management keys can perform this operation");

  if (isActivity) {
    if (method !== "GET") return error(405, "Method not allowed");
    const date = query.get("date");
    if (date !== null && !/^\d{4}-\d{2}-\d{2}$/.test(date)) return error(400, "date must be YYYY-MM-DD");
    const rows = activity(account, now).filter((r) => date === null || r.date === date);
    return {
      status: 200,
      body: { data: rows.map((r) => ({ ...r, usage: r.usage.toNumber(), byok_usage_inference: r.byok_usage_inference.toNumber() })) },
    };
  }

  if (path === "/api/v1/keys") {
    if (method === "GET") {
      const offset = Number(query.get("offset") ?? "0") || 0;
      const includeDisabled = query.get("include_disabled") === "true";
      const keys = account.keys.filter((k) => includeDisabled || !k.disabled).slice(offset, offset + 100);
      return { status: 200, body: { data: keys.map(keyJson) } };
    }
    if (method === "POST") {
      if (typeof body.name !== "string" || !body.name.trim()) return error(400, "name is required");
      const secret = `sk-or-v1-${randomBytes(32).toString("hex")}`;
      const key: ReplicaKey = {
        hash: hashOf(secret), secret, name: body.name, disabled: false, limit: null, limitReset: null,
        includeByokInLimit: false, usage: new Decimal(0), historicUsage: new Decimal(0), createdAt: now.toISOString(), updatedAt: null,
      };
      const problem = applyKeyFields(key, body);
      if (problem) return error(400, problem);
      account.keys.push(key);
      return { status: 200, body: { data: keyJson(key), key: secret } };
    }
    return error(405, "Method not allowed");
  }

  const hash = decodeURIComponent(path.slice("/api/v1/keys/".length));
  const key = account.keys.find((k) => k.hash === hash);
  if (!key) return error(404, "Key not found");
  if (method === "GET") return { status: 200, body: { data: keyJson(key) } };
  if (method === "PATCH") {
    const draft = { ...key };
    const problem = applyKeyFields(draft, body);
    if (problem) return error(400, problem);
    Object.assign(key, draft, { updatedAt: now.toISOString() });
    return { status: 200, body: { data: keyJson(key) } };
  }
  if (method === "DELETE") {
    account.keys.splice(account.keys.indexOf(key), 1);
    return { status: 200, body: { deleted: true } };
  }
  return error(405, "Method not allowed");
}

// ---- Activity: 30 completed UTC days of recorded-looking history, plus today's live usage.

const ACTIVE_PROVIDERS: ProviderSeed[] = kimiK25.providers.filter((p) => ["DeepInfra", "Parasail", "Together", "Fireworks"].includes(p.provider));

/** A model endpoint the "list" history bills: Kimi K2.5 and GLM-5 at their listed prices, and one model nobody watches. */
interface BilledEndpoint {
  model: string;
  permaslug: string;
  provider: ProviderSeed;
}

const UNWATCHED_MODEL = { id: "meta-llama/llama-3.3-70b-instruct", permaslug: "meta-llama/llama-3.3-70b-instruct" };
const seedAt = (model: ModelSeed, provider: string): ProviderSeed => model.providers.find((p) => p.provider === provider) as ProviderSeed;
const LIST_BILLED: BilledEndpoint[] = [
  ...["DeepInfra", "Parasail", "Together", "Fireworks", "Novita"].map((provider) => ({ model: kimiK25.id, permaslug: kimiK25.permaslug, provider: seedAt(kimiK25, provider) })),
  ...["DeepInfra", "Novita"].map((provider) => ({ model: glm5.id, permaslug: glm5.permaslug, provider: seedAt(glm5, provider) })),
  {
    model: UNWATCHED_MODEL.id,
    permaslug: UNWATCHED_MODEL.permaslug,
    provider: { ...seedAt(kimiK25, "Together"), tag: "together/llama", inputPerM: "0.88", outputPerM: "0.88" },
  },
];

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A deterministic day of history: the same date always gives the same rows. */
function seededDay(date: string, billing: ActivityBilling): ActivityRow[] {
  const dayNumber = Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY);
  const billed: BilledEndpoint[] = billing === "list" ? LIST_BILLED : ACTIVE_PROVIDERS.map((provider) => ({ model: kimiK25.id, permaslug: kimiK25.permaslug, provider }));
  return billed.flatMap(({ model, permaslug, provider: p }, index) => {
    const requests = 200 + ((dayNumber * 37 + index * 101) % 400);
    if ((dayNumber + index) % 5 === 0) return []; // not every provider serves every day
    const prompt = requests * 1800;
    const completion = requests * 900;
    const reasoning = Math.round(completion * 0.4);
    // Reasoning is billed as output. In the recorded history a few cache hits make input a little
    // cheaper than listed; the "list" history bills exactly the listed prices.
    const inputRate = billing === "list" ? new Decimal(p.inputPerM) : new Decimal(p.inputPerM).times("0.92");
    const usage = inputRate.times(prompt).plus(new Decimal(p.outputPerM).times(completion)).div(1_000_000);
    return [{
      date,
      model,
      model_permaslug: permaslug,
      endpoint_id: endpointId(permaslug, p),
      provider_name: p.provider,
      usage: billing === "list" ? usage : usage.toDecimalPlaces(6),
      byok_usage_inference: new Decimal(0),
      requests,
      prompt_tokens: prompt,
      completion_tokens: completion,
      reasoning_tokens: reasoning,
    }];
  });
}

function endpointId(permaslug: string, p: ProviderSeed): string {
  return createHash("sha256").update(`${permaslug}|${p.tag}`).digest("hex").slice(0, 8) + "-" + p.tag.replace(/\W/g, "-");
}

function activity(account: AccountState, now: Date): ActivityRow[] {
  const today = Date.parse(`${utcDay(now)}T00:00:00Z`);
  const rows: ActivityRow[] = [];
  for (let back = 30; back >= 1; back--) rows.push(...seededDay(utcDay(new Date(today - back * DAY)), account.activityBilling));
  // Today's row is incomplete until the day ends: OpenRouter shows it, growing.
  rows.push(...account.liveActivity.filter((r) => r.date === utcDay(now)));
  return rows;
}

// ---- Chat completions, charged to the calling key.

/** What one replica chat completion costs: fixed token counts at DeepInfra's listed prices. */
export const CHAT_PROMPT_TOKENS = 1200;
export const CHAT_COMPLETION_TOKENS = 800;
const CHAT_PROVIDER = kimiK25.providers.find((p) => p.provider === "DeepInfra") as ProviderSeed;
export const CHAT_COST_USD = new Decimal(CHAT_PROVIDER.inputPerM).times(CHAT_PROMPT_TOKENS).plus(new Decimal(CHAT_PROVIDER.outputPerM).times(CHAT_COMPLETION_TOKENS)).div(1_000_000);

/**
 * Refuses the calling key when it is unknown (401), disabled (403) or at its limit (402);
 * otherwise charges it one completion and records the usage in today's activity. Returns the
 * refusal, or null and the charge when the request may be served.
 */
export function chargeChatCompletion(account: AccountState, authorization: string | undefined, now = new Date()): { refusal: ApiAnswer } | { refusal: null; cost: Decimal; provider: ProviderSeed } {
  const secret = bearer(authorization);
  if (!secret) return { refusal: error(401, "No auth credentials found") };
  if (secret.startsWith(MANAGEMENT_KEY_PREFIX)) return { refusal: error(401, "Management keys cannot call chat completions") };
  const key = account.keys.find((k) => k.secret === secret);
  if (!key) return { refusal: error(401, "User not found") };
  if (key.disabled) return { refusal: error(403, "This API key is disabled") };
  if (key.limit !== null && usageAgainstLimit(key).gte(key.limit)) {
    const per = key.limitReset === null ? "" : ` for this ${{ daily: "day", weekly: "week", monthly: "month" }[key.limitReset]}`;
    return { refusal: error(402, `This key has reached its limit of $${key.limit.toFixed()}${per}; raise it at https://openrouter.ai/settings/keys`) };
  }
  key.usage = key.usage.plus(CHAT_COST_USD);
  const date = utcDay(now);
  let row = account.liveActivity.find((r) => r.date === date && r.provider_name === CHAT_PROVIDER.provider);
  if (!row) {
    row = {
      date, model: kimiK25.id, model_permaslug: kimiK25.permaslug, endpoint_id: endpointId(kimiK25.permaslug, CHAT_PROVIDER), provider_name: CHAT_PROVIDER.provider,
      usage: new Decimal(0), byok_usage_inference: new Decimal(0), requests: 0, prompt_tokens: 0, completion_tokens: 0, reasoning_tokens: 0,
    };
    account.liveActivity.push(row);
  }
  row.usage = row.usage.plus(CHAT_COST_USD);
  row.requests += 1;
  row.prompt_tokens += CHAT_PROMPT_TOKENS;
  row.completion_tokens += CHAT_COMPLETION_TOKENS;
  row.reasoning_tokens += CHAT_COMPLETION_TOKENS / 2;
  return { refusal: null, cost: CHAT_COST_USD, provider: CHAT_PROVIDER };
}

/** A minimal chat completion answer in OpenRouter's shape (only what budget tests need). */
export function minimalChatCompletion(account: AccountState, authorization: string | undefined, now = new Date()): ApiAnswer {
  const charged = chargeChatCompletion(account, authorization, now);
  if (charged.refusal) return charged.refusal;
  const created = Math.floor(now.getTime() / 1000);
  return {
    status: 200,
    body: {
      id: `gen-${created}-${randomBytes(6).toString("hex")}`,
      provider: charged.provider.provider,
      model: kimiK25.permaslug,
      object: "chat.completion",
      created,
      choices: [{ index: 0, message: { role: "assistant", content: "ok", reasoning: null }, finish_reason: "stop", native_finish_reason: "stop" }],
      usage: {
        prompt_tokens: CHAT_PROMPT_TOKENS,
        completion_tokens: CHAT_COMPLETION_TOKENS,
        total_tokens: CHAT_PROMPT_TOKENS + CHAT_COMPLETION_TOKENS,
        cost: charged.cost.toNumber(),
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: CHAT_COMPLETION_TOKENS / 2 },
      },
    },
  };
}
