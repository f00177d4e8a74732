import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { guarded, jsonError, readParams } from "@/lib/http";
import { probeIdParams } from "@/lib/probe/params";
import { cancelRun } from "@/lib/probe/runs";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** Cancels a run: a queued one at once, a running one after its in-flight answers are stored. */
export const POST = guarded(async (_request: Request, context: Context) => {
  const params = readParams(await context.params, probeIdParams);
  if (!params.ok) return params.response;
  const run = await cancelRun(await getDb(), params.data.id);
  if (!run) return jsonError(404, `No probe ${params.data.id}`);
  return NextResponse.json(run);
});
