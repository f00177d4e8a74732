import { NextResponse } from "next/server";
import { z } from "zod";
import { bearerMatches } from "@/lib/security/basic-auth";
import { env } from "@/lib/env";
import { guarded, jsonError, readJson } from "@/lib/http";
import { pollNow } from "@/lib/jobs/poll";

export const dynamic = "force-dynamic";

// The trigger takes no options: an empty body, or an empty JSON object.
const pollInput = z.object({}).strict();

/** Runs one poll cycle over every watched model. Protected by CRON_SECRET when it is set. */
export const POST = guarded(async (request: Request) => {
  const body = await readJson(request, pollInput, { maxBytes: 1024, emptyAs: {} });
  if (!body.ok) return body.response;
  if (env.CRON_SECRET && !bearerMatches(request.headers.get("authorization"), env.CRON_SECRET)) {
    return jsonError(401, "This route needs Authorization: Bearer <CRON_SECRET>");
  }
  const result = await pollNow("api");
  return NextResponse.json(result);
});
