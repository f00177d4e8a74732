import { getDb } from "@/lib/database";
import { guarded, jsonError } from "@/lib/http";
import { comparisonForView } from "@/lib/queries/cached";
import { routingResponse } from "@/lib/routing-response";
import { getView } from "@/lib/saved-views";

export const dynamic = "force-dynamic";

/** The current allow-list of a saved view: what the data pipeline fetches when it starts. */
export const GET = guarded(async (_request: Request, context: { params: Promise<{ slug: string }> }) => {
  const { slug } = await context.params;
  const view = await getView(await getDb(), slug);
  if (!view) return jsonError(404, `There is no saved view "${slug}" (it may have been deleted)`);
  const comparison = await comparisonForView(view.modelId, new URLSearchParams(view.query));
  if (!comparison) return jsonError(404, `The view's model ${view.modelId} is no longer watched`);
  return routingResponse(comparison);
});
