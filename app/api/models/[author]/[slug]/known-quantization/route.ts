import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { guarded, jsonError, modelIdFromParams, readJson } from "@/lib/http";
import {
  deleteKnownQuantization,
  knownQuantizationDeletion,
  knownQuantizationInput,
  listKnownQuantizations,
  setKnownQuantization,
} from "@/lib/known-quantization";
import { provenanceFactsChanged } from "@/lib/provenance/hooks";
import { requestRejudge } from "@/lib/provenance/rejudge-requests";
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
  // Asked before the change (and again after it, by provenanceFactsChanged): a process that dies
  // between the two leaves the request for the re-judgement job.
  await requestRejudge(model.db, { modelId: model.modelId }, "a known quantization was recorded");
  await setKnownQuantization(model.db, model.modelId, body.data);
  await provenanceFactsChanged(model.db, model.modelId, "a known quantization was recorded");
  return NextResponse.json({ known: await listKnownQuantizations(model.db, model.modelId) });
});

// The tag comes in a JSON body (`{"tag": "fireworks"}`) or, as before, in the query (`?tag=`).
export const DELETE = guarded(async (request: Request, context: Context) => {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const body = await readJson(request, knownQuantizationDeletion, { emptyAs: query });
  if (!body.ok) return body.response;
  if (query.tag !== undefined && query.tag.trim() !== body.data.tag) {
    return jsonError(400, `tag: the body names "${body.data.tag}" but the query names "${query.tag}"; send one`);
  }
  const model = await watchedModel(context);
  if (model.error) return model.error;
  const { tag } = body.data;
  const recorded = await model.db.knownQuantization.findUnique({ where: { modelId_tag: { modelId: model.modelId, tag } }, select: { id: true } });
  if (!recorded) return jsonError(404, `Nothing recorded for ${tag}`);
  await requestRejudge(model.db, { modelId: model.modelId }, "a known quantization was removed");
  const deleted = await deleteKnownQuantization(model.db, model.modelId, tag);
  if (deleted) await provenanceFactsChanged(model.db, model.modelId, "a known quantization was removed");
  return deleted ? NextResponse.json({ deleted: tag }) : jsonError(404, `Nothing recorded for ${tag}`);
});
