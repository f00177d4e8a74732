import { NextResponse } from "next/server";
import { getViewAlert, putViewAlert, viewAlertInput } from "@/lib/alerts/view-settings";
import { getDb } from "@/lib/database";
import { guarded, jsonError, readJson } from "@/lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ slug: string }> };

/** The saved view's alert conditions. */
export const GET = guarded(async (_request: Request, context: Context) => {
  const { slug } = await context.params;
  const alert = await getViewAlert(await getDb(), slug);
  return alert ? NextResponse.json(alert) : jsonError(404, `There is no saved view "${slug}"`);
});

/** Turns the view's alerts on or off and each condition; fields left out keep their value. */
export const PUT = guarded(async (request: Request, context: Context) => {
  const body = await readJson(request, viewAlertInput);
  if (!body.ok) return body.response;
  const { slug } = await context.params;
  const alert = await putViewAlert(await getDb(), slug, body.data);
  return alert ? NextResponse.json(alert) : jsonError(404, `There is no saved view "${slug}"`);
});
