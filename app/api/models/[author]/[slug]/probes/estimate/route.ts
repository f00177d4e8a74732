import { NextResponse } from "next/server";

import { getDb } from "@/lib/database";
import { guarded, jsonError, modelParamsSchema, readJson, readParams } from "@/lib/http";
import { estimateProbe, probeInputSchema } from "@/lib/probe/runs";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ author: string; slug: string }> };

const estimateInput = probeInputSchema.pick({ reference: true, endpoints: true, prompts: true });

/** What a probe with these choices would cost, before anything is sent. Writes nothing. */
export const POST = guarded(async (request: Request, context: Context) => {
  const params = readParams(await context.params, modelParamsSchema);
  if (!params.ok) return params.response;
  const body = await readJson(request, estimateInput, { emptyAs: {} });
  if (!body.ok) return body.response;
  const estimate = await estimateProbe(await getDb(), params.data, body.data);
  if ("error" in estimate) return jsonError(estimate.kind === "not-found" ? 404 : 400, estimate.error);
  return NextResponse.json(estimate);
});


