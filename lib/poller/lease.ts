import type { Db } from "../db/engines";

// A row lease on WatchedModel serialises polls of one model across processes and instances:
// the UPDATE is atomic, so of two cycles started at once only one gets the model. A lease left
// by a killed process expires on its own.

export const LEASE_SECONDS = 300;

export async function claimModel(db: Db, modelId: string): Promise<boolean> {
  const claimed = await db.$executeRaw`
    UPDATE "WatchedModel"
       SET "pollLeaseUntil" = now() + make_interval(secs => ${LEASE_SECONDS})
     WHERE id = ${modelId}
       AND ("pollLeaseUntil" IS NULL OR "pollLeaseUntil" < now())`;
  return claimed === 1;
}

export async function releaseModel(db: Db, modelId: string): Promise<void> {
  await db.$executeRaw`UPDATE "WatchedModel" SET "pollLeaseUntil" = NULL WHERE id = ${modelId}`;
}
