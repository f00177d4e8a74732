import "server-only";
import type { Db } from "../db/engines";

// A row lease on WatchedModel serialises polls of one model across processes and instances:
// the UPDATE is atomic, so of two cycles started at once only one gets the model. A lease left
// by a killed process expires on its own. The lease's expiry doubles as its owner's token, so a
// late release never frees a lease that another instance has taken since.

export const LEASE_SECONDS = 300;

/** Takes the model's lease; its expiry (the token to release it with), or null when it is held. */
export async function claimModel(db: Db, modelId: string, leaseSeconds = LEASE_SECONDS): Promise<Date | null> {
  const rows = await db.$queryRaw<Array<{ lease: Date }>>`
    UPDATE "WatchedModel"
       SET "pollLeaseUntil" = now() + make_interval(secs => ${leaseSeconds}::int)
     WHERE id = ${modelId}
       AND ("pollLeaseUntil" IS NULL OR "pollLeaseUntil" < now())
 RETURNING "pollLeaseUntil" AS lease`;
  return rows[0]?.lease ?? null;
}

/** Frees the lease; with a token, only when it is still the one this poller took. */
export async function releaseModel(db: Db, modelId: string, lease?: Date): Promise<void> {
  if (lease) {
    await db.$executeRaw`UPDATE "WatchedModel" SET "pollLeaseUntil" = NULL WHERE id = ${modelId} AND "pollLeaseUntil" = ${lease}`;
  } else {
    await db.$executeRaw`UPDATE "WatchedModel" SET "pollLeaseUntil" = NULL WHERE id = ${modelId}`;
  }
}
