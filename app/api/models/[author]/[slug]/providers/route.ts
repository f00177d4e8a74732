import { NextResponse } from "next/server";
import { getDb } from "@/lib/db/client";
import { jsonError, modelIdFromParams } from "@/lib/http";
import { latestProviders } from "@/lib/queries/providers";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, context: { params: Promise<{ author: string; slug: string }> }) {
  const modelId = modelIdFromParams(await context.params);
  if (!modelId) return jsonError(400, "The model id must look like author/slug");
  const snapshot = await latestProviders(await getDb(), modelId);
  if (!snapshot) return jsonError(404, `Model ${modelId} is not watched. Add it on the models page first.`);
  return NextResponse.json(snapshot);
}
