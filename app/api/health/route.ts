import { NextResponse } from "next/server";
import { getOpenedDb } from "@/lib/database";
import { healthReport } from "@/lib/queries/health";
import { schedulerFacts } from "@/lib/jobs/poll";

export const dynamic = "force-dynamic";

/**
 * Health for monitors, open without BASIC_AUTH: 200 when all is well; 503 with the reason in words
 * when the database cannot be reached or the scheduler's polls have not succeeded for too long.
 */
export async function GET() {
  const report = await healthReport({ openDb: getOpenedDb, scheduler: schedulerFacts() });
  return NextResponse.json(report, { status: report.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
