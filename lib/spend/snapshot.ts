import "server-only";
import Decimal from "decimal.js";
import type { Db } from "../db/engines";
import type { OpenRouterClient } from "../openrouter/client";
import { OpenRouterError } from "../openrouter/errors";
import { publishWritten } from "../reactions/publish";

// Reads what the key has spent (GET /key) and, where the key may, the account's credits
// (GET /credits: management keys only; anything else answers 403) and stores one SpendSnapshot.

export interface SpendSnapshotResult {
  observedAt: Date;
  usage: string;
  credits: "stored" | "not_allowed" | "failed";
}

function dec(value: number | null | undefined): Decimal | null {
  return value === null || value === undefined ? null : new Decimal(value);
}

export async function recordSpendSnapshot(db: Db, client: OpenRouterClient, now = new Date()): Promise<SpendSnapshotResult | null> {
  if (!client.hasKey) return null;
  const key = await client.key();
  let credits: { total_credits: number; total_usage: number } | null = null;
  let creditsState: SpendSnapshotResult["credits"] = "stored";
  try {
    credits = (await client.credits()).data.data;
  } catch (err) {
    const forbidden = err instanceof OpenRouterError && (err.status === 403 || err.status === 401);
    creditsState = forbidden ? "not_allowed" : "failed";
    if (!forbidden) console.error("[spend] GET /credits failed:", (err as Error).message);
  }
  const k = key.data.data;
  // What reacts to it (the budget alerts: steps reached, run-out) runs in its transaction.
  const row = await db.$transaction(async (tx) => {
    const created = await tx.spendSnapshot.create({
      data: {
        observedAt: now,
        usage: new Decimal(k.usage),
        limit: dec(k.limit),
        limitRemaining: dec(k.limit_remaining),
        totalCredits: dec(credits?.total_credits),
        totalUsage: dec(credits?.total_usage),
        demo: key.demo,
      },
    });
    await publishWritten(tx, { kind: "spend-snapshot", observedAt: now, demo: key.demo });
    return created;
  });
  return { observedAt: row.observedAt, usage: row.usage.toString(), credits: creditsState };
}

/** The after-cycle step: a spend snapshot per poll cycle when an API key is configured. */
export const spendSnapshotStep = {
  name: "spend snapshot",
  async run(db: Db, client: OpenRouterClient): Promise<void> {
    await recordSpendSnapshot(db, client);
  },
};
