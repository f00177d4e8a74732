import { NextResponse } from "next/server";
import { guarded, jsonError, modelParamsSchema, readParams } from "@/lib/http";
import { schedulerState } from "@/lib/jobs/poll";
import { latestPollFor } from "@/lib/queries/latest-poll";

export const dynamic = "force-dynamic";

/** The model's last poll and when the scheduler polls next: what an open page watches. */
export const GET = guarded(async (_request: Request, context: { params: Promise<{ author: string; slug: string }> }) => {
  const modelId = readParams(await context.params, modelParamsSchema);
  if (!modelId.ok) return modelId.response;
  const latest = await latestPollFor(modelId.data, schedulerState());
  if (!latest) return jsonError(404, `Model ${modelId.data} is not watched. Add it on the models page first.`);
  return NextResponse.json(latest);
});
