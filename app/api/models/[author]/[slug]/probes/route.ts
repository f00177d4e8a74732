import { NextResponse } from "next/server";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { guarded, jsonError, modelParamsSchema, readJson, readParams, readQuery } from "@/lib/http";
import { wakeProbeWorker } from "@/lib/jobs/probe-worker";
import { createProbeRun, listRuns, probeInputSchema } from "@/lib/probe/runs";
import { findWatchedModel } from "@/lib/queries/models";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ author: string; slug: string }> };

/** Starts a fidelity probe: 202 {id, status, estimateUsd}; 422 when the estimate is over the cap. */
export const POST = guarded(async (request: Request, context: Context) => {
  const params = readParams(await context.params, modelParamsSchema);
  if (!params.ok) return params.response;
  const body = await readJson(request, probeInputSchema);
  if (!body.ok) return body.response;
  const outcome = await createProbeRun(await getDb(), params.data, body.data);
  switch (outcome.kind) {
    case "created":
      wakeProbeWorker();
      return NextResponse.json({ id: outcome.run.id, status: outcome.run.status, estimateUsd: outcome.run.estimateUsd }, { status: 202 });
    case "not-found":
      return jsonError(404, outcome.message);
    case "bad":
      return jsonError(400, outcome.message);
    case "over-cap":
      return NextResponse.json({ error: outcome.message, estimateUsd: outcome.estimateUsd }, { status: 422 });
    case "busy":
      return jsonError(409, outcome.message);
  }
});

const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) });

/** The model's probe runs, newest first. */
export const GET = guarded(async (request: Request, context: Context) => {
  const params = readParams(await context.params, modelParamsSchema);
  if (!params.ok) return params.response;
  const query = readQuery(request, listQuery);
  if (!query.ok) return query.response;
  const db = await getDb();
  if (!(await findWatchedModel(db, params.data))) return jsonError(404, `Model ${params.data} is not watched`);
  return NextResponse.json({ runs: await listRuns(db, params.data, query.data.limit) });
});
