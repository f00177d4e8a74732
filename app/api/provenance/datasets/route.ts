import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { guarded, jsonError, readJson } from "@/lib/http";
import { chooseDatasetView, datasetViewInput, listDatasetViews } from "@/lib/provenance/choices";

export const dynamic = "force-dynamic";

// GET: the view each dataset's pipeline ran under. PUT {dataset, view}: choose it (view null clears).

export const GET = guarded(async () => NextResponse.json({ datasets: await listDatasetViews(await getDb()) }));

export const PUT = guarded(async (request: Request) => {
  const body = await readJson(request, datasetViewInput);
  if (!body.ok) return body.response;
  const db = await getDb();
  const chosen = await chooseDatasetView(db, body.data);
  if (!chosen.ok) return jsonError(400, `${chosen.field}: ${chosen.message}`);
  return NextResponse.json({ datasets: await listDatasetViews(db) });
});
