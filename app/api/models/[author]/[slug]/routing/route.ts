import { guarded, jsonError, modelIdFromParams } from "@/lib/http";
import { comparisonForView } from "@/lib/queries/cached";
import { routingResponse } from "@/lib/routing-response";

export const dynamic = "force-dynamic";

/**
 * The routing preferences for the page's query, as JSON for scripts:
 * GET /api/models/moonshotai/kimi-k2.5/routing?xq=int4,fp4&xp=fireworks&upmin=95
 */
export const GET = guarded(async (request: Request, context: { params: Promise<{ author: string; slug: string }> }) => {
  const modelId = modelIdFromParams(await context.params);
  if (!modelId) return jsonError(400, "The model id must look like author/slug");
  const comparison = await comparisonForView(modelId, new URL(request.url).searchParams);
  if (!comparison) return jsonError(404, `Model ${modelId} is not watched`);
  return routingResponse(comparison);
});
