import { NextResponse } from "next/server";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { guarded, jsonError, readBodyCapped, readQuery } from "@/lib/http";
import { listPromptSets, uploadPromptSet } from "@/lib/probe/prompt-sets";

export const dynamic = "force-dynamic";

const MAX_BYTES = 5 * 1024 * 1024;
const query = z.object({ name: z.string().min(1).max(100).default("uploaded prompts") });

/** Uploads the team's prompts as JSONL (one {"messages": [...]} or {"prompt": "..."} per line). */
export const POST = guarded(async (request: Request) => {
  const q = readQuery(request, query);
  if (!q.ok) return q.response;
  const bytes = await readBodyCapped(request, MAX_BYTES);
  if (bytes === null) return jsonError(413, `The file is over ${MAX_BYTES} bytes`);
  const outcome = await uploadPromptSet(await getDb(), q.data.name, new TextDecoder().decode(bytes));
  if (!outcome.ok) return NextResponse.json({ error: { status: 400, message: "The prompt file has bad lines" }, errors: outcome.errors }, { status: 400 });
  return NextResponse.json(outcome, { status: 201 });
});

/** The prompt sets a run can use: the built-in set first, then the uploads, newest first. */
export const GET = guarded(async () => NextResponse.json({ sets: await listPromptSets(await getDb()) }));
