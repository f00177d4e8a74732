import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { guarded, jsonError, modelParamsSchema, readJson, readParams } from "@/lib/http";
import { probeSettingsInputSchema, readProbeSettings, resetProbeSettings, saveProbeSettings } from "@/lib/probe/model-settings";
import { findWatchedModel } from "@/lib/queries/models";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ author: string; slug: string }> };

/** The margin Δ and sampler the model's next probe run uses, whether the team's or the defaults. */
export const GET = guarded(async (_request: Request, context: Context) => {
  const params = readParams(await context.params, modelParamsSchema);
  if (!params.ok) return params.response;
  const db = await getDb();
  if (!(await findWatchedModel(db, params.data))) return jsonError(404, `Model ${params.data} is not watched`);
  return NextResponse.json(await readProbeSettings(db, params.data));
});

/**
 * Sets the team's own: body {deltaNats, temperature, top_p, top_k|null, min_p|null,
 * presence_penalty?, frequency_penalty?} (a penalty left out is 0). Applies from the next run.
 */
export const PUT = guarded(async (request: Request, context: Context) => {
  const params = readParams(await context.params, modelParamsSchema);
  if (!params.ok) return params.response;
  const body = await readJson(request, probeSettingsInputSchema);
  if (!body.ok) return body.response;
  const db = await getDb();
  if (!(await findWatchedModel(db, params.data))) return jsonError(404, `Model ${params.data} is not watched`);
  return NextResponse.json(await saveProbeSettings(db, params.data, body.data));
});

/** Back to the defaults (lib/probe/settings.ts). */
export const DELETE = guarded(async (_request: Request, context: Context) => {
  const params = readParams(await context.params, modelParamsSchema);
  if (!params.ok) return params.response;
  const db = await getDb();
  if (!(await findWatchedModel(db, params.data))) return jsonError(404, `Model ${params.data} is not watched`);
  return NextResponse.json(await resetProbeSettings(db, params.data));
});
