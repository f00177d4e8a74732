import "server-only";
import { z } from "zod";
import type { Db, DbOrTx } from "./db/engines";
import { KNOWN_QUANTIZATIONS } from "./rules/vocabulary";

// Team knowledge: what an endpoint really serves, when the team knows better than what
// OpenRouter reports (Fireworks reports "unknown" but serves NVFP4). The rules use it first.

export const knownQuantizationInput = z.object({
  tag: z.string().min(1).max(100),
  quantization: z.enum(KNOWN_QUANTIZATIONS),
  note: z.string().trim().min(3, "say how you know (at least 3 characters)").max(500),
  recordedBy: z.string().trim().min(1, "say who you are").max(80),
});
export type KnownQuantizationInput = z.infer<typeof knownQuantizationInput>;

/** What deleting a team note names: the endpoint's tag (in a JSON body, or `?tag=` in the query). */
export const knownQuantizationDeletion = z.object({
  tag: z
    .string({ error: "name the endpoint whose note to delete (its tag, e.g. \"fireworks\")" })
    .trim()
    .min(1, "name the endpoint whose note to delete (its tag, e.g. \"fireworks\")")
    .max(100),
});

export interface KnownQuantizationEntry {
  tag: string;
  quantization: string;
  note: string;
  recordedBy: string;
  recordedAt: string;
}

export async function listKnownQuantizations(db: DbOrTx, modelId: string): Promise<KnownQuantizationEntry[]> {
  const rows = await db.knownQuantization.findMany({ where: { modelId }, orderBy: { tag: "asc" } });
  return rows.map((r) => ({
    tag: r.tag,
    quantization: r.quantization,
    note: r.note,
    recordedBy: r.recordedBy,
    recordedAt: r.recordedAt.toISOString(),
  }));
}

export async function setKnownQuantization(db: Db, modelId: string, input: KnownQuantizationInput) {
  const data = { quantization: input.quantization, note: input.note, recordedBy: input.recordedBy, recordedAt: new Date() };
  await db.knownQuantization.upsert({
    where: { modelId_tag: { modelId, tag: input.tag } },
    create: { modelId, tag: input.tag, ...data },
    update: data,
  });
}

export async function deleteKnownQuantization(db: Db, modelId: string, tag: string): Promise<boolean> {
  const { count } = await db.knownQuantization.deleteMany({ where: { modelId, tag } });
  return count > 0;
}
