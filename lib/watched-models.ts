import type { Db } from "./db/engines";
import { normaliseModelId } from "./openrouter/client";

// The list of watched models lives in the database. WATCHED_MODELS only adds the ids it names
// when they are missing: a model removed on the page is not brought back by a restart.

export async function seedWatchedModels(db: Db, ids: string[]): Promise<void> {
  const valid = ids.flatMap((id) => {
    try {
      return [normaliseModelId(id)];
    } catch (err) {
      console.warn(`[watched-models] WATCHED_MODELS: ${(err as Error).message}; ignored`);
      return [];
    }
  });
  if (valid.length) {
    await db.watchedModel.createMany({ data: valid.map((id) => ({ id })), skipDuplicates: true });
  }
}
