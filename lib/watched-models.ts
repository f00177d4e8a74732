import "server-only";
import type { Db } from "./db/engines";
import { normaliseModelId, type OpenRouterClient } from "./openrouter/client";

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

export type AddModelResult = { ok: true; id: string; name: string } | { ok: false; status: 400 | 404 | 502; message: string };

/** Adds (or brings back) a watched model after checking the id against OpenRouter's catalogue. */
export async function addWatchedModel(db: Db, client: OpenRouterClient, rawId: string): Promise<AddModelResult> {
  let id: string;
  try {
    id = normaliseModelId(rawId);
  } catch (err) {
    return { ok: false, status: 400, message: (err as Error).message };
  }
  let catalogue;
  try {
    catalogue = await client.models();
  } catch (err) {
    return { ok: false, status: 502, message: `Could not check the id against OpenRouter: ${(err as Error).message}` };
  }
  const entry = catalogue.data.data.find((m) => m.id === id || m.canonical_slug === id);
  if (!entry) return { ok: false, status: 404, message: `OpenRouter has no model "${id}". Check the id on openrouter.ai/models.` };
  await db.watchedModel.upsert({
    where: { id: entry.id },
    create: { id: entry.id, name: entry.name },
    update: { active: true, name: entry.name },
  });
  return { ok: true, id: entry.id, name: entry.name };
}

/** Stops watching a model. Its history stays, and adding it again brings it back. */
export async function removeWatchedModel(db: Db, id: string): Promise<boolean> {
  const { count } = await db.watchedModel.updateMany({ where: { id, active: true }, data: { active: false } });
  return count > 0;
}
