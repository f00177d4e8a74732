import "server-only";
import { env } from "../env";
import { createManagementClient, type ManagementClient } from "./management";

let client: ManagementClient | undefined;

/** The management client when OPENROUTER_MANAGEMENT_KEY is set, else null. The key stays on the server. */
export function managementClient(): ManagementClient | null {
  if (!env.OPENROUTER_MANAGEMENT_KEY) return null;
  client ??= createManagementClient({
    baseUrl: env.OPENROUTER_BASE_URL,
    apiKey: env.OPENROUTER_MANAGEMENT_KEY,
    timeoutMs: env.OPENROUTER_TIMEOUT_SECONDS * 1000,
    // A person waits on the page for these: two attempts, not four.
    maxAttempts: 2,
  });
  return client;
}

/** Why key changes are refused on this server, or null when they are allowed. */
export function keyChangesRefusal(): string | null {
  if (env.BASIC_AUTH) return null;
  if (env.ALLOW_KEY_CHANGES_WITHOUT_AUTH) return null;
  return "Key changes are off: this dashboard is not protected by BASIC_AUTH, so anyone who can open it could stop or unleash spending. Set BASIC_AUTH (or, on purpose, ALLOW_KEY_CHANGES_WITHOUT_AUTH=true) and restart.";
}
