import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Decimal from "decimal.js";
import { kimiK25 } from "./data/kimi-k2.5";
import { REPLICA_MODELS, modelEndpoints, perToken, type Patch } from "./endpoints";
import { applyDrift, createDrift, type DriftOptions, type DriftState } from "./drift";
import { CHAT_PATH, chatFaultPath, completeChat, freshChatState, readChatBody, requantize, type ChatBehaviour, type ChatState } from "./chat";
import { freshAccount, handleAccountRequest, type ActivityBilling, isAccountChat, minimalChatCompletion, type AccountState } from "./keys";
import { PREFILL_BEHAVIOURS, WEIGHT_FORMATS, type PrefillBehaviour, type WeightFormat } from "./lm/types";
import { GENERATION_PATH, answerGeneration, freshGenerationState, type GenerationState } from "./generation";

export { REPLICA_MODELS, endpointJson, modelEndpoints, type Patch } from "./endpoints";

// A local stand-in for OpenRouter's API (GET /api/v1/...), answering in OpenRouter's exact shape
// from recorded data, with uptimes that move from poll to poll. It can be told to fail through
// its control routes under /__replica/. Every answer carries X-Routeboard-Replica so that the
// dashboard labels what it stores from here as demo data.

export type FaultKind = "429" | "500" | "503" | "hang" | "malformed" | "wrong_shape" | "empty" | "401";

export interface Fault {
  kind: FaultKind;
  /** How many matching requests fail this way (default 1). */
  times?: number;
  /** Only requests whose path contains this fail (default: every API request). */
  path?: string;
  /** Seconds, for 429. */
  retryAfter?: number;
}

interface State {
  faults: Array<Required<Pick<Fault, "kind" | "times">> & Fault>;
  patches: Patch[];
  endpointCalls: Record<string, number>;
  keyCalls: number;
  /** Every API request, with when it arrived (ms since the epoch). */
  requests: Array<{ method: string; path: string; authorized: boolean; atMs: number }>;
  /** Demo drift (see drift.ts); null serves the recorded data. */
  drift: DriftState | null;
  chat: ChatState;
  /** API keys, activity and chat usage (replica/keys.ts). */
  account: AccountState;
  /** GET /generation: its lag and the lookups it answered (replica/generation.ts). */
  generation: GenerationState;
}

export interface ReplicaOptions {
  /** Let the data drift a little on every poll (the demo only; see drift.ts). */
  drift?: DriftOptions;
  /** Patches applied from the start (the demo's state after its generated history). */
  patches?: Patch[];
  /** How the seeded activity history bills (replica/keys.ts); kept across resets. */
  activityBilling?: ActivityBilling;
  /** Endpoints answers already served per model, to resume a restarted demo's uptime wobble. */
  endpointCalls?: Record<string, number>;
}

export interface Replica {
  url: string;
  baseUrl: string;
  close(): Promise<void>;
  state: State;
}

function freshState(activityBilling?: ActivityBilling): State {
  return { faults: [], patches: [], endpointCalls: {}, keyCalls: 0, requests: [], drift: null, chat: freshChatState(), account: freshAccount(activityBilling), generation: freshGenerationState() };
}

function catalogue() {
  return {
    data: REPLICA_MODELS.map((m) => ({
      id: m.id,
      canonical_slug: m.permaslug,
      name: m.name,
      created: m.created,
      description: m.description,
      context_length: m.providers[0].contextLength,
      pricing: { prompt: perToken(m.providers[0].inputPerM), completion: perToken(m.providers[0].outputPerM) },
    })),
  };
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : {};
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", "x-routeboard-replica": "1", ...headers });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

function takeFault(state: State, path: string): Fault | undefined {
  const index = state.faults.findIndex((f) => !f.path || path.includes(f.path));
  if (index < 0) return undefined;
  const fault = state.faults[index];
  fault.times -= 1;
  if (fault.times <= 0) state.faults.splice(index, 1);
  return fault;
}

export async function startReplica(port = 0, host = "127.0.0.1", options: ReplicaOptions = {}): Promise<Replica> {
  const state = freshState(options.activityBilling);
  state.patches.push(...(options.patches ?? []));
  if (options.drift) state.drift = createDrift(options.drift);
  Object.assign(state.endpointCalls, options.endpointCalls);
  const hanging = new Set<ServerResponse>();

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://replica");
    const path = url.pathname;
    try {
      if (path.startsWith("/__replica/")) return await control(req, res, path);
      if (!path.startsWith("/api/v1/")) return send(res, 404, { error: { code: 404, message: "Not Found" } });
      const authorized = /^Bearer \S+/.test(req.headers.authorization ?? "");
      state.requests.push({ method: req.method ?? "GET", path, authorized, atMs: Date.now() });

      const chatBody = path === CHAT_PATH && req.method === "POST" ? await readChatBody(req) : undefined;
      const fault = takeFault(state, chatBody === undefined ? path : chatFaultPath(chatBody));
      if (fault) {
        switch (fault.kind) {
          case "429":
            return send(res, 429, { error: { code: 429, message: "Rate limit exceeded" } }, { "retry-after": String(fault.retryAfter ?? 1) });
          case "500":
          case "503":
            return send(res, Number(fault.kind), { error: { code: Number(fault.kind), message: "Internal Server Error" } });
          case "401":
            return send(res, 401, { error: { code: 401, message: "No auth credentials found" } });
          case "hang":
            hanging.add(res);
            res.on("close", () => hanging.delete(res));
            return;
          case "malformed":
            return send(res, 200, '{"data": {"id": "moonshotai/kimi-k2.5", "endpoints": [');
          case "wrong_shape":
            return send(res, 200, { data: { id: "moonshotai/kimi-k2.5", name: "Kimi K2.5", endpoints: "unavailable" } });
          case "empty":
            if (path.endsWith("/endpoints")) {
              const model = REPLICA_MODELS.find((m) => path.includes(m.id)) ?? kimiK25;
              return send(res, 200, { data: { ...modelEndpoints(model, 0, false, []).data, endpoints: [] } });
            }
            return send(res, 200, { data: [] });
        }
      }

      if (chatBody !== undefined) {
        // A key of the replica's account (replica/keys.ts) is charged against its limit, as
        // OpenRouter does, with a flat answer; any other key gets the probe's toy language model.
        if (isAccountChat(state.account, req.headers.authorization)) {
          const answer = minimalChatCompletion(state.account, req.headers.authorization);
          return send(res, answer.status, answer.body);
        }
        const answer = completeChat(state.chat, chatBody, Date.now(), (id) => {
          const model = REPLICA_MODELS.find((m) => m.id === id);
          // With their latency and throughput: the router sorts by them whether or not the caller has a key.
          return model ? { permaslug: model.permaslug, endpoints: modelEndpoints(model, 0, true, state.patches).data.endpoints } : null;
        });
        return send(res, answer.status, answer.json);
      }

      const method = req.method ?? "GET";
      const body = method === "GET" ? {} : ((await readBody(req)) as Record<string, unknown>);
      const account = handleAccountRequest(state.account, method, path, url.searchParams, req.headers.authorization, body);
      if (account) return send(res, account.status, account.body);

      if (path === GENERATION_PATH && method === "GET") {
        if (!authorized) return send(res, 401, { error: { code: 401, message: "No auth credentials found" } });
        const answer = answerGeneration(state.generation, state.chat.calls, url.searchParams);
        return send(res, answer.status, answer.body);
      }

      const endpoints = /^\/api\/v1\/models\/([^/]+)\/([^/]+)\/endpoints$/.exec(path);
      if (endpoints) {
        const id = `${decodeURIComponent(endpoints[1])}/${decodeURIComponent(endpoints[2])}`;
        const model = REPLICA_MODELS.find((m) => m.id === id);
        if (!model) return send(res, 404, { error: { code: 404, message: "No endpoints found for " + id } });
        const poll = state.endpointCalls[model.id] ?? 0;
        state.endpointCalls[model.id] = poll + 1;
        const body = modelEndpoints(model, poll, authorized, state.patches);
        if (state.drift) applyDrift(model.id, body.data.endpoints, state.drift);
        return send(res, 200, body);
      }
      if (path === "/api/v1/models") return send(res, 200, catalogue());
      if (path === "/api/v1/key") {
        if (!authorized) return send(res, 401, { error: { code: 401, message: "No auth credentials found" } });
        // Spend grows a little with every call, like a pipeline running in the background.
        const usage = new Decimal("12.5").plus(new Decimal("0.75").times(state.keyCalls++)).toNumber();
        return send(res, 200, {
          data: {
            label: "sk-or-v1-rep...ica",
            limit: 100,
            limit_remaining: Math.max(0, 100 - usage),
            limit_reset: null,
            usage,
            usage_daily: usage,
            usage_weekly: usage,
            usage_monthly: usage,
            is_free_tier: false,
            is_management_key: false,
            is_provisioning_key: false,
            include_byok_in_limit: false,
            byok_usage: 0,
          },
        });
      }
      if (path === "/api/v1/credits") {
        if (!authorized) return send(res, 401, { error: { code: 401, message: "No auth credentials found" } });
        return send(res, 403, { error: { code: 403, message: "Only management keys can perform this operation" } });
      }
      return send(res, 404, { error: { code: 404, message: "Not Found" } });
    } catch (err) {
      return send(res, 500, { error: { code: 500, message: (err as Error).message } });
    }
  });

  async function control(req: IncomingMessage, res: ServerResponse, path: string) {
    if (path === "/__replica/state") {
      return send(res, 200, { faults: state.faults, patches: state.patches, endpointCalls: state.endpointCalls, keyCalls: state.keyCalls, requests: state.requests.length, drift: state.drift, chatCalls: state.chat.calls });
    }
    if (req.method !== "POST") return send(res, 405, { error: "POST only" });
    const body = (await readBody(req)) as Record<string, unknown>;
    if (path === "/__replica/reset") {
      Object.assign(state, freshState(options.activityBilling));
      return send(res, 200, { ok: true });
    }
    if (path === "/__replica/fault") {
      const fault = body as unknown as Fault;
      state.faults.push({ ...fault, times: fault.times ?? 1 });
      return send(res, 200, { ok: true, faults: state.faults.length });
    }
    if (path === "/__replica/patch") {
      state.patches.push(body as unknown as Patch);
      return send(res, 200, { ok: true });
    }
    if (path === "/__replica/requantize") {
      // An endpoint starts serving the released weights converted to another format (as a
      // provider re-quantizing would), or its recorded behaviour again with format null.
      const tag = String(body.tag);
      const format = body.format === null ? null : (body.format as WeightFormat);
      if (format !== null && !WEIGHT_FORMATS.includes(format)) return send(res, 400, { error: `format must be null or one of ${WEIGHT_FORMATS.join(", ")}` });
      requantize(state.chat, tag, format);
      return send(res, 200, { ok: true });
    }
    if (path === "/__replica/behaviour") {
      // Sets an endpoint's fallback quirk (chat.ts: every n-th answer from another provider,
      // whatever the routing preferences say; null turns it off) and how it answers a prefilled
      // assistant message (continues it, answers it as a new turn, or refuses it), each when given.
      const tag = String(body.tag);
      const change: Partial<ChatBehaviour> = {};
      if ("fallback" in body) {
        const fallback = body.fallback as ChatBehaviour["fallback"];
        if (fallback !== null && !(typeof fallback === "object" && typeof fallback.every === "number" && typeof fallback.providerTag === "string")) {
          return send(res, 400, { error: "fallback must be null or {every, providerTag}" });
        }
        change.fallback = fallback;
      }
      if ("prefill" in body) {
        if (!PREFILL_BEHAVIOURS.includes(body.prefill as PrefillBehaviour)) return send(res, 400, { error: `prefill must be one of ${PREFILL_BEHAVIOURS.join(", ")}` });
        change.prefill = body.prefill as PrefillBehaviour;
      }
      if (Object.keys(change).length === 0) return send(res, 400, { error: "give fallback or prefill" });
      state.chat.overrides[tag] = { ...state.chat.overrides[tag], ...change };
      return send(res, 200, { ok: true });
    }
    if (path === "/__replica/generation-lag") {
      // The next `lookups` lookups of `id` (or of every id on its first lookup) answer 404, as
      // OpenRouter does for a while after a completion.
      const lookups = body.lookups;
      if (typeof lookups !== "number" || !Number.isInteger(lookups) || lookups < 0) return send(res, 400, { error: "lookups must be a non-negative integer" });
      if (typeof body.id === "string") state.generation.lag.byId[body.id] = lookups;
      else state.generation.lag.all = lookups;
      return send(res, 200, { ok: true });
    }
    if (path === "/__replica/drift") {
      state.drift = body.enabled === false ? null : createDrift({ seed: typeof body.seed === "number" ? body.seed : undefined });
      return send(res, 200, { ok: true, drift: state.drift !== null });
    }
    return send(res, 404, { error: "unknown control route" });
  }

  // Idle keep-alive connections are closed by the client, never by this server. With Node's default
  // (5 s) the server could close an idle socket just as a client (undici, 4 s idle) reused it: on a
  // busy machine, where timers fire late, that showed as ECONNRESET on a loopback fetch to a server
  // that was up. close() below ends every connection still open.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  const url = `http://${host}:${address.port}`;
  return {
    url,
    baseUrl: `${url}/api/v1`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Test helpers that drive a running replica over HTTP (works across processes). */
export async function injectFault(replicaUrl: string, fault: Fault): Promise<void> {
  await fetch(`${replicaUrl}/__replica/fault`, { method: "POST", body: JSON.stringify(fault) });
}

export async function patchReplica(replicaUrl: string, patch: Patch): Promise<void> {
  await fetch(`${replicaUrl}/__replica/patch`, { method: "POST", body: JSON.stringify(patch) });
}

/** Makes an endpoint serve the released weights in another format from now on (null: its recorded behaviour again). */
export async function requantizeReplica(replicaUrl: string, tag: string, format: WeightFormat | null): Promise<void> {
  const res = await fetch(`${replicaUrl}/__replica/requantize`, { method: "POST", body: JSON.stringify({ tag, format }) });
  if (!res.ok) throw new Error(`requantize ${tag}: ${res.status}`);
}

/** Makes GET /generation answer 404 for the next `lookups` lookups of `id`, or of every id on its first lookup. */
export async function lagGenerations(replicaUrl: string, lookups: number, id?: string): Promise<void> {
  const res = await fetch(`${replicaUrl}/__replica/generation-lag`, { method: "POST", body: JSON.stringify({ lookups, id }) });
  if (!res.ok) throw new Error(`generation-lag: ${res.status}`);
}

export async function resetReplica(replicaUrl: string): Promise<void> {
  await fetch(`${replicaUrl}/__replica/reset`, { method: "POST" });
}
