import "server-only";
import { getDb } from "../database";
import { loadDashboard, type Dashboard } from "./dashboard";
import { memo, READ_REUSE_MS } from "./memo";

/** The home page's figures, shared between viewers like the model page's reads (see cached.ts). */
export function dashboardForView(): Promise<Dashboard> {
  return memo("dashboard", async () => loadDashboard(await getDb()), READ_REUSE_MS);
}
