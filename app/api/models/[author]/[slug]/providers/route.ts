import { NextResponse } from "next/server";
import { guarded, jsonError, modelParamsSchema, readParams } from "@/lib/http";
import { latestProvidersForView } from "@/lib/queries/cached";

export const dynamic = "force-dynamic";

export const GET = guarded(async (_request: Request, context: { params: Promise<{ author: string; slug: string }> }) => {
  const modelId = readParams(await context.params, modelParamsSchema);
  if (!modelId.ok) return modelId.response;
  const snapshot = await latestProvidersForView(modelId.data);
  if (!snapshot) return jsonError(404, `Model ${modelId.data} is not watched. Add it on the models page first.`);
  return NextResponse.json(snapshot);
});
