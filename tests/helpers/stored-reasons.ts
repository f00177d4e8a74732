import type { Db } from "@/lib/db/engines";

/**
 * Each stored judgement's reasons, read from its details (ProvenanceDetail): a function from a
 * record's judgement row (or none) to its reasons. Read once, then looked up per record.
 */
export async function storedReasons(db: Db): Promise<(judgement: { detail: string } | null | undefined) => string[]> {
  const details = new Map((await db.provenanceDetail.findMany({ select: { digest: true, reasons: true } })).map((d) => [d.digest, d.reasons]));
  return (judgement) => {
    if (!judgement) return [];
    const reasons = details.get(judgement.detail);
    if (!reasons) throw new Error(`judgement points at detail ${judgement.detail}, which is not stored`);
    return reasons;
  };
}
