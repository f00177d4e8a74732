import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { guarded, jsonError, readParams } from "@/lib/http";
import { probeIdParams } from "@/lib/probe/params";
import { getRunResults, getRunView } from "@/lib/probe/runs";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** A probe run with its progress and each endpoint's result. */
export const GET = guarded(async (_request: Request, context: Context) => {
  const params = readParams(await context.params, probeIdParams);
  if (!params.ok) return params.response;
  const db = await getDb();
  const run = await getRunView(db, params.data.id);
  if (!run) return jsonError(404, `No probe ${params.data.id}`);
  return NextResponse.json({ ...run, results: await getRunResults(db, run.id) });
});
