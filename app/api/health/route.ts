import { NextResponse } from "next/server";
import { getOpenedDb } from "@/lib/db/client";
import { healthReport } from "@/lib/queries/health";
import { schedulerRunning } from "@/lib/poller/service";

export const dynamic = "force-dynamic";

/** Liveness for monitors: open without BASIC_AUTH, 503 when the database cannot be reached. */
export async function GET() {
  const report = await healthReport({ openDb: getOpenedDb, schedulerRunning: schedulerRunning() });
  return NextResponse.json(report, { status: report.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
