import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { guarded, jsonError, modelParamsSchema, readJson, readParams } from "@/lib/http";
import { getSchedule, saveSchedule, scheduleInputSchema } from "@/lib/probe/schedule";
import { findWatchedModel } from "@/lib/queries/models";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ author: string; slug: string }> };

/** The model's scheduled re-probe: on or off, its monthly cap, this month's spend, the last skip. */
export const GET = guarded(async (_request: Request, context: Context) => {
  const params = readParams(await context.params, modelParamsSchema);
  if (!params.ok) return params.response;
  const db = await getDb();
  if (!(await findWatchedModel(db, params.data))) return jsonError(404, `Model ${params.data} is not watched`);
  return NextResponse.json(await getSchedule(db, params.data));
});

/** Turns the scheduled re-probe on or off: body {enabled: boolean, monthlyCapUsd: "5.00"}. */
export const PUT = guarded(async (request: Request, context: Context) => {
  const params = readParams(await context.params, modelParamsSchema);
  if (!params.ok) return params.response;
  const body = await readJson(request, scheduleInputSchema);
  if (!body.ok) return body.response;
  const db = await getDb();
  if (!(await findWatchedModel(db, params.data))) return jsonError(404, `Model ${params.data} is not watched`);
  return NextResponse.json(await saveSchedule(db, params.data, body.data));
});
