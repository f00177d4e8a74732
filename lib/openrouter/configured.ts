import "server-only";
import { env } from "../env";
import { createOpenRouterClient, type OpenRouterClient } from "./client";

let client: OpenRouterClient | undefined;

/** The client as the environment configures it. The key stays on the server. */
export function openRouter(): OpenRouterClient {
  client ??= createOpenRouterClient({
    baseUrl: env.OPENROUTER_BASE_URL,
    apiKey: env.OPENROUTER_API_KEY,
    timeoutMs: env.OPENROUTER_TIMEOUT_SECONDS * 1000,
  });
  return client;
}
