import { NextResponse } from "next/server";
import { getDb } from "@/lib/db/client";
import { listChanges } from "@/lib/history/change-log";
import { changesQuery, searchObject } from "@/lib/history/params";
import { jsonError, modelIdFromParams, zodMessage } from "@/lib/http";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ author: string; slug: string }> }) {
  const modelId = modelIdFromParams(await context.params);
  if (!modelId) return jsonError(400, "The model id must look like author/slug");
  const query = changesQuery.safeParse(searchObject(new URL(request.url).searchParams));
  if (!query.success) return jsonError(400, zodMessage(query.error));
  const page = await listChanges(await getDb(), modelId, query.data);
  if (!page) return jsonError(404, `Model ${modelId} is not watched. Add it on the models page first.`);
  return NextResponse.json(page);
}
