import { NextResponse } from "next/server";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { guarded, jsonError, modelIdFromParams, readJson, zodMessage } from "@/lib/http";
import {
  deleteKnownQuantization,
  knownQuantizationInput,
  listKnownQuantizations,
  setKnownQuantization,
} from "@/lib/known-quantization";
import { provenanceFactsChanged } from "@/lib/provenance/hooks";
import { findWatchedModel } from "@/lib/queries/models";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ author: string; slug: string }> };

async function watchedModel(context: Context) {
  const modelId = modelIdFromParams(await context.params);
  if (!modelId) return { error: jsonError(400, "The model id must look like author/slug") } as const;
  const db = await getDb();
  if (!(await findWatchedModel(db, modelId))) return { error: jsonError(404, `Model ${modelId} is not watched`) } as const;
  return { db, modelId } as const;
}

export const GET = guarded(async (_request: Request, context: Context) => {
  const model = await watchedModel(context);
  if (model.error) return model.error;
  return NextResponse.json({ known: await listKnownQuantizations(model.db, model.modelId) });
});

export const PUT = guarded(async (request: Request, context: Context) => {
  const body = await readJson(request, knownQuantizationInput);
  if (!body.ok) return body.response;
  const model = await watchedModel(context);
  if (model.error) return model.error;
  await setKnownQuantization(model.db, model.modelId, body.data);
  await provenanceFactsChanged(model.db, model.modelId, "a known quantization was recorded");
  return NextResponse.json({ known: await listKnownQuantizations(model.db, model.modelId) });
});

export const DELETE = guarded(async (request: Request, context: Context) => {
  const parsed = z.object({ tag: z.string().min(1).max(100) }).safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return jsonError(400, zodMessage(parsed.error));
  const model = await watchedModel(context);
  if (model.error) return model.error;
  const deleted = await deleteKnownQuantization(model.db, model.modelId, parsed.data.tag);
  if (deleted) await provenanceFactsChanged(model.db, model.modelId, "a known quantization was removed");
  return deleted ? NextResponse.json({ deleted: parsed.data.tag }) : jsonError(404, `Nothing recorded for ${parsed.data.tag}`);
});
