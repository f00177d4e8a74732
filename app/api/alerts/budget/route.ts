import { NextResponse } from "next/server";
import { budgetAlertInput, getBudgetAlert, putBudgetAlert } from "@/lib/alerts/detect-budget";
import { getDb } from "@/lib/database";
import { guarded, readJson } from "@/lib/http";

export const dynamic = "force-dynamic";

/** The global budget conditions (spend steps, run-out, the pipeline key's limit). */
export const GET = guarded(async () => NextResponse.json(await getBudgetAlert(await getDb())));

export const PUT = guarded(async (request: Request) => {
  const body = await readJson(request, budgetAlertInput);
  if (!body.ok) return body.response;
  return NextResponse.json(await putBudgetAlert(await getDb(), body.data));
});
