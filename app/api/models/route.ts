import { NextResponse } from "next/server";
import { getDb } from "@/lib/db/client";
import { listWatchedModels } from "@/lib/queries/models";

export const dynamic = "force-dynamic";

export async function GET() {
  return NextResponse.json({ models: await listWatchedModels(await getDb()) });
}
