import "server-only";
import { getDb } from "../database";
import { env } from "../env";
import { openRouter } from "../openrouter/configured";
import { lookupRound } from "../provenance/lookup";
import { clearMemo } from "../queries/memo";
import { startLoop } from "./loop";

// The generation lookup job as the running app uses it: every few seconds (and at once after an
// import that added id-only records) it looks up the due generations in OpenRouter's /generation
// (lib/provenance/lookup.ts), paced and resumable: its state is in the database, so a restart
// carries on where the last process stopped, and an id already answered is never asked again.

async function round(): Promise<void> {
  const client = openRouter();
  if (!client.hasKey) return; // /generation needs the API key; the page says so
  const db = await getDb();
  for (;;) {
    const r = await lookupRound(db, client, {
      perSecond: env.GENERATION_LOOKUPS_PER_SECOND,
      maxTries: env.GENERATION_LOOKUP_MAX_TRIES,
      // Held while a lookup may still answer; a process that died frees its rows after this.
      leaseSeconds: env.OPENROUTER_TIMEOUT_SECONDS + 15,
    });
    if (r.claimed === 0) return;
    console.log(`[lookup] ${r.claimed} looked up: ${r.found} found, ${r.later} later, ${r.notFound} not found, ${r.failed} failed${r.pausedUntil ? `; paused until ${r.pausedUntil}` : ""}`);
    clearMemo(); // the page shows the new classes at once
    if (r.pausedUntil) return;
  }
}

function worker(intervalMs = 5_000) {
  return startLoop({
    name: "generation lookup",
    intervalMs,
    firstDelayMs: 1_500, // resume what a previous process left soon after start
    round,
    onError: (err) => console.error("[lookup] round failed:", (err as Error).message),
  });
}

export function startGenerationLookup(intervalMs = 5_000): boolean {
  worker(intervalMs);
  return true;
}

/** Starts on newly imported id-only records without waiting for the next tick. */
export function wakeGenerationLookup(): void {
  worker().wake();
}
