import { NextResponse } from "next/server";
import { changesQuery } from "@/lib/history/params";
import { guarded, jsonError, modelParamsSchema, readParams, readQuery } from "@/lib/http";
import { changesForView } from "@/lib/queries/cached";

export const dynamic = "force-dynamic";

export const GET = guarded(async (request: Request, context: { params: Promise<{ author: string; slug: string }> }) => {
  const modelId = readParams(await context.params, modelParamsSchema);
  if (!modelId.ok) return modelId.response;
  const query = readQuery(request, changesQuery);
  if (!query.ok) return query.response;
  const page = await changesForView(modelId.data, query.data);
  if (!page) return jsonError(404, `Model ${modelId.data} is not watched. Add it on the models page first.`);
  return NextResponse.json(page);
});
