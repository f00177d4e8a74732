import { NextResponse } from "next/server";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { guarded, jsonError, readQuery } from "@/lib/http";
import { EXPORT_FORMATS, exportStream, judgementOf } from "@/lib/provenance/export";
import { PROVENANCE_CLASSES } from "@/lib/provenance/judge";
import { listDatasets } from "@/lib/provenance/queries";
import { NO_DATASET } from "@/lib/view-state/provenance";

export const dynamic = "force-dynamic";

// GET /api/provenance?class=suspect&dataset=B5&format=ids|csv: the generations of one class, as a
// stream (one id a line, or CSV with the reasons), for a pipeline to filter its training set.
// dataset: omitted for all, "(none)" for the records without one. GET /api/provenance?id=gen-…:
// one generation's judgement as JSON.

const GENERATION_ID = /^(sha256:[0-9a-f]{64}|[A-Za-z0-9][A-Za-z0-9_.:-]{0,199})$/;

const querySchema = z.union([
  z.object({ id: z.string().regex(GENERATION_ID, "not a generation id (letters, digits, _ . : - up to 200, or sha256:<64 hex>)") }).strict(),
  z
    .object({
      class: z.enum(PROVENANCE_CLASSES, { message: `must be one of ${PROVENANCE_CLASSES.join(", ")}` }),
      dataset: z.string().max(80).optional(),
      format: z.enum(EXPORT_FORMATS, { message: `must be one of ${EXPORT_FORMATS.join(", ")}` }).default("ids"),
    })
    .strict(),
]);

export const GET = guarded(async (request: Request) => {
  const params = new URL(request.url).searchParams;
  // Which shape was meant decides which message a bad request gets.
  const query = readQuery(request, params.has("id") ? querySchema.options[0] : querySchema.options[1]);
  if (!query.ok) return query.response;
  const db = await getDb();
  if ("id" in query.data) {
    const found = await judgementOf(db, query.data.id);
    return found ? NextResponse.json(found) : jsonError(404, `id: no imported generation ${query.data.id}`);
  }
  const { class: cls, format } = query.data;
  let dataset: string | null = null;
  if (query.data.dataset !== undefined) {
    dataset = query.data.dataset === NO_DATASET ? "" : query.data.dataset;
    const known = await listDatasets(db);
    if (!known.includes(dataset)) {
      const names = known.map((d) => (d === "" ? NO_DATASET : d));
      return jsonError(400, `dataset: no imported records of dataset ${query.data.dataset} (known: ${names.join(", ") || "none yet"})`);
    }
  }
  const name = `provenance-${cls}${dataset === null ? "" : `-${dataset === "" ? "none" : dataset}`}.${format === "csv" ? "csv" : "txt"}`;
  return new Response(exportStream(db, cls, dataset, format), {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "text/plain; charset=utf-8",
      "content-disposition": `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "cache-control": "no-store",
    },
  });
});
