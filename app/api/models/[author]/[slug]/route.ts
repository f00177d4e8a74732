import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { guarded, jsonError, modelIdFromParams } from "@/lib/http";
import { removeWatchedModel } from "@/lib/watched-models";

export const dynamic = "force-dynamic";

/** Stops watching a model; its stored history stays. */
export const DELETE = guarded(async (_request: Request, context: { params: Promise<{ author: string; slug: string }> }) => {
  const modelId = modelIdFromParams(await context.params);
  if (!modelId) return jsonError(400, "The model id must look like author/slug");
  const removed = await removeWatchedModel(await getDb(), modelId);
  return removed
    ? NextResponse.json({ removed: modelId })
    : jsonError(404, `Model ${modelId} is not watched`);
});
