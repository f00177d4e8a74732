import { NextResponse } from "next/server";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { guarded, jsonError, readBodyCapped, zodMessage } from "@/lib/http";
import { viewIdBySlug } from "@/lib/provenance/choices";
import { SLUG } from "@/lib/saved-views";
import { wakeGenerationLookup } from "@/lib/jobs/generation-lookup";
import { importUsage } from "@/lib/usage/import";
import { MAX_IMPORT_BYTES } from "@/lib/usage/parse";

export const dynamic = "force-dynamic";

// POST /api/usage: a JSONL file of usage records, as the request body (any text type) or as the
// `file` field of a multipart upload. Answers counts and the rejected lines by number.

const querySchema = z.object({
  filename: z.string().trim().min(1).max(200).regex(/^[^/\\\0]+$/, "a file name, not a path").optional(),
  /** The saved view the pipeline ran under for this file (provenance). */
  view: z.string().regex(SLUG, "a saved view's short link, 6-16 lowercase letters and digits").optional(),
});
const bodySchema = z.string().refine((s) => s.trim().length > 0, "the body is empty: send JSONL, one usage record per line");
const fileSchema = z.instanceof(File, { message: "expected a file in the `file` field" });

const tooLarge = () => jsonError(413, `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB; split it into smaller files`);

export const POST = guarded(async (request: Request) => {
  const search = new URL(request.url).searchParams;
  const query = querySchema.safeParse({ filename: search.get("filename") ?? undefined, view: search.get("view") || undefined });
  if (!query.success) return jsonError(400, zodMessage(query.error));
  const viewId = query.data.view === undefined ? null : await viewIdBySlug(await getDb(), query.data.view);
  if (query.data.view !== undefined && viewId === null) return jsonError(400, `view: no saved view ${query.data.view}`);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_IMPORT_BYTES) return tooLarge();

  const bytes = await readBodyCapped(request, MAX_IMPORT_BYTES);
  if (bytes === null) return tooLarge();

  let filename = query.data.filename ?? "api-upload.jsonl";
  let text: string;
  const contentType = request.headers.get("content-type") ?? "";
  if (contentType.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await new Response(bytes, { headers: { "content-type": contentType } }).formData();
    } catch {
      return jsonError(400, "file: the multipart body could not be read");
    }
    const file = fileSchema.safeParse(form.get("file"));
    if (!file.success) return jsonError(400, `file: ${zodMessage(file.error)}`);
    filename = query.data.filename ?? (file.data.name || filename).slice(0, 200);
    text = await file.data.text();
  } else {
    text = new TextDecoder().decode(bytes);
  }
  const body = bodySchema.safeParse(text);
  if (!body.success) return jsonError(400, `body: ${zodMessage(body.error)}`);

  const result = await importUsage(await getDb(), filename, body.data, { viewId });
  if (result.awaitingLookup > 0) wakeGenerationLookup();
  return NextResponse.json(result);
});
