import { NextResponse } from "next/server";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { guarded, jsonError, readJson, zodMessage } from "@/lib/http";
import { findWatchedModel } from "@/lib/queries/models";
import { env } from "@/lib/env";
import { createView, listViews, savedBy, viewInput } from "@/lib/saved-views";

export const dynamic = "force-dynamic";

export const GET = guarded(async (request: Request) => {
  const parsed = z.object({ model: z.string().min(3).max(200) }).safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return jsonError(400, zodMessage(parsed.error));
  return NextResponse.json({ views: await listViews(await getDb(), parsed.data.model) });
});

export const POST = guarded(async (request: Request) => {
  const body = await readJson(request, viewInput);
  if (!body.ok) return body.response;
  const db = await getDb();
  if (!(await findWatchedModel(db, body.data.modelId))) return jsonError(404, `Model ${body.data.modelId} is not watched`);
  const view = await createView(db, body.data, savedBy(env.BASIC_AUTH));
  return NextResponse.json(view, { status: 201 });
});
