import "server-only";
import type { Db } from "../db/engines";
import { managementClient } from "../openrouter/management-configured";
import { hourlyManagementRead } from "./import";

/** The after-cycle step: OpenRouter's activity and the pipeline key's usage, at most once an hour. */
export const activityStep = {
  name: "activity",
  async run(db: Db): Promise<void> {
    const client = managementClient();
    if (!client) return;
    await hourlyManagementRead(db, client);
  },
};
