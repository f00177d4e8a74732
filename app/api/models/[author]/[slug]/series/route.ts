import { NextResponse } from "next/server";
import { seriesQuery } from "@/lib/history/params";
import { guarded, jsonError, modelParamsSchema, readParams, readQuery } from "@/lib/http";
import { seriesForView } from "@/lib/queries/cached";

export const dynamic = "force-dynamic";

export const GET = guarded(async (request: Request, context: { params: Promise<{ author: string; slug: string }> }) => {
  const modelId = readParams(await context.params, modelParamsSchema);
  if (!modelId.ok) return modelId.response;
  const query = readQuery(request, seriesQuery);
  if (!query.ok) return query.response;
  const { metric, range, bucket } = query.data;
  const series = await seriesForView(modelId.data, metric, range, bucket);
  if (!series) return jsonError(404, `Model ${modelId.data} is not watched. Add it on the models page first.`);
  return NextResponse.json(series);
});
