import "server-only";
import type { Db } from "../db/engines";
import { BUILTIN_PROMPTS, BUILTIN_VERSION, parsePromptsJsonl, promptSetVersion, type ProbePrompt } from "./prompts";

// Where a run's prompts come from: the built-in set, or a set the team uploaded (stored once,
// with its version hash, so a run can be resumed with exactly the prompts it started with).

export async function promptsOfRun(db: Db, promptSet: string): Promise<ProbePrompt[]> {
  if (promptSet === "builtin") return BUILTIN_PROMPTS;
  const id = Number(promptSet.replace(/^upload:/, ""));
  const row = await db.probePromptSet.findUniqueOrThrow({ where: { id } });
  return row.prompts as unknown as ProbePrompt[];
}

export async function resolvePromptSet(db: Db, choice: "builtin" | { id: number }): Promise<{ key: string; version: string; prompts: ProbePrompt[] } | null> {
  if (choice === "builtin") return { key: "builtin", version: BUILTIN_VERSION, prompts: BUILTIN_PROMPTS };
  const row = await db.probePromptSet.findUnique({ where: { id: choice.id } });
  if (!row) return null;
  return { key: `upload:${row.id}`, version: row.version, prompts: row.prompts as unknown as ProbePrompt[] };
}

export type UploadOutcome =
  | { ok: true; id: number; name: string; version: string; prompts: number; errors: Array<{ line: number; message: string }> }
  | { ok: false; errors: Array<{ line: number; message: string }> };

/** Stores an uploaded JSONL prompt set; refused when a line is bad or fewer than 10 prompts are left. */
export async function uploadPromptSet(db: Db, name: string, jsonl: string): Promise<UploadOutcome> {
  const { prompts, errors } = parsePromptsJsonl(jsonl);
  if (errors.length > 0) return { ok: false, errors };
  if (prompts.length < 10) return { ok: false, errors: [{ line: 0, message: `a probe needs at least 10 prompts; the file has ${prompts.length}` }] };
  const version = promptSetVersion(prompts);
  const row = await db.probePromptSet.create({ data: { name, version, prompts: prompts as unknown as object } });
  return { ok: true, id: row.id, name, version, prompts: prompts.length, errors };
}

export interface PromptSetSummary {
  /** "builtin" or the uploaded set's id. */
  id: "builtin" | number;
  name: string;
  version: string;
  prompts: number;
  createdAt: string | null;
}

/** The sets a run can use: the built-in one, then the uploads, newest first (counted in SQL, not loaded). */
export async function listPromptSets(db: Db, limit = 50): Promise<PromptSetSummary[]> {
  const rows = await db.$queryRaw<Array<{ id: number; name: string; version: string; prompts: number; createdAt: Date }>>`
    SELECT id, name, version, jsonb_array_length(prompts)::int AS prompts, "createdAt"
    FROM "ProbePromptSet" ORDER BY id DESC LIMIT ${limit}`;
  return [
    { id: "builtin", name: "Built-in", version: BUILTIN_VERSION, prompts: BUILTIN_PROMPTS.length, createdAt: null },
    ...rows.map((r) => ({ id: r.id, name: r.name, version: r.version, prompts: Number(r.prompts), createdAt: r.createdAt.toISOString() })),
  ];
}
