import { NextResponse } from "next/server";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { guarded, jsonError, readJson } from "@/lib/http";
import { openRouter } from "@/lib/openrouter/configured";
import { watchedModelsForView } from "@/lib/queries/cached";
import { addWatchedModel } from "@/lib/watched-models";

export const dynamic = "force-dynamic";

export const GET = guarded(async () => {
  return NextResponse.json({ models: await watchedModelsForView() });
});

/** Adds a watched model by its OpenRouter id, checked against OpenRouter's catalogue. */
export const POST = guarded(async (request: Request) => {
  const body = await readJson(request, z.object({ id: z.string().trim().min(3).max(200) }));
  if (!body.ok) return body.response;
  const result = await addWatchedModel(await getDb(), openRouter(), body.data.id);
  if (!result.ok) return jsonError(result.status, result.message);
  return NextResponse.json({ id: result.id, name: result.name }, { status: 201 });
});
