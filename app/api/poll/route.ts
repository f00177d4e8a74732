import { NextResponse } from "next/server";
import { env } from "@/lib/env";
import { jsonError } from "@/lib/http";
import { pollNow } from "@/lib/poller/service";

export const dynamic = "force-dynamic";

/** Runs one poll cycle over every watched model. Protected by CRON_SECRET when it is set. */
export async function POST(request: Request) {
  if (env.CRON_SECRET && request.headers.get("authorization") !== `Bearer ${env.CRON_SECRET}`) {
    return jsonError(401, "This route needs Authorization: Bearer <CRON_SECRET>");
  }
  const result = await pollNow("api");
  return NextResponse.json(result);
}
