import { NextResponse } from "next/server";
import { guarded } from "@/lib/http";
import { watchedModelsForView } from "@/lib/queries/cached";

export const dynamic = "force-dynamic";

export const GET = guarded(async () => {
  return NextResponse.json({ models: await watchedModelsForView() });
});
