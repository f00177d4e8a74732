import { NextResponse } from "next/server";
import { getDb } from "@/lib/db/client";
import { guarded } from "@/lib/http";
import { listWatchedModels } from "@/lib/queries/models";

export const dynamic = "force-dynamic";

export const GET = guarded(async () => {
  return NextResponse.json({ models: await listWatchedModels(await getDb()) });
});
