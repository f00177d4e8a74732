import { NextResponse } from "next/server";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { jsonError, readJson } from "@/lib/http";
import { openRouter } from "@/lib/openrouter/configured";
import { listWatchedModels } from "@/lib/queries/models";
import { addWatchedModel } from "@/lib/watched-models";

export const dynamic = "force-dynamic";

export async function GET() {
  return NextResponse.json({ models: await listWatchedModels(await getDb()) });
}

/** Adds a watched model by its OpenRouter id, checked against OpenRouter's catalogue. */
export async function POST(request: Request) {
  const body = await readJson(request, z.object({ id: z.string().trim().min(3).max(200) }));
  if (!body.ok) return body.response;
  const result = await addWatchedModel(await getDb(), openRouter(), body.data.id);
  if (!result.ok) return jsonError(result.status, result.message);
  return NextResponse.json({ id: result.id, name: result.name }, { status: 201 });
}
