import { NextResponse } from "next/server";
import { getDb } from "@/lib/db/client";
import { modelSeries } from "@/lib/history/series";
import { searchObject, seriesQuery } from "@/lib/history/params";
import { jsonError, modelIdFromParams, zodMessage } from "@/lib/http";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ author: string; slug: string }> }) {
  const modelId = modelIdFromParams(await context.params);
  if (!modelId) return jsonError(400, "The model id must look like author/slug");
  const query = seriesQuery.safeParse(searchObject(new URL(request.url).searchParams));
  if (!query.success) return jsonError(400, zodMessage(query.error));
  const { metric, range, bucket } = query.data;
  const series = await modelSeries(await getDb(), modelId, metric, range, { bucket });
  if (!series) return jsonError(404, `Model ${modelId} is not watched. Add it on the models page first.`);
  return NextResponse.json(series);
}
