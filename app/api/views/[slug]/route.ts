import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { guarded, jsonError, readJson } from "@/lib/http";
import { deleteView, getView, updateView, viewUpdate } from "@/lib/saved-views";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ slug: string }> };

export const GET = guarded(async (_request: Request, context: Context) => {
  const { slug } = await context.params;
  const view = await getView(await getDb(), slug);
  return view ? NextResponse.json(view) : jsonError(404, `There is no saved view "${slug}"`);
});

export const PUT = guarded(async (request: Request, context: Context) => {
  const body = await readJson(request, viewUpdate);
  if (!body.ok) return body.response;
  const { slug } = await context.params;
  const view = await updateView(await getDb(), slug, body.data);
  return view ? NextResponse.json(view) : jsonError(404, `There is no saved view "${slug}"`);
});

export const DELETE = guarded(async (_request: Request, context: Context) => {
  const { slug } = await context.params;
  return (await deleteView(await getDb(), slug))
    ? NextResponse.json({ deleted: slug })
    : jsonError(404, `There is no saved view "${slug}"`);
});
