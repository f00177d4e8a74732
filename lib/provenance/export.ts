import "server-only";
import { toCsv } from "../csv";
import type { Db } from "../db/engines";
import type { ProvenanceClass } from "./judge";
import { exportRows } from "./queries";

export const EXPORT_FORMATS = ["ids", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const CSV_HEADER = ["generation_id", "class", "dataset", "provider", "tag", "occurred_at", "reasons"] as const;

/**
 * One class's generations as a stream: one id a line, or CSV with the reasons (joined by " | ").
 * Pages are read from the database as the client reads the stream, so memory stays at one page.
 */
export function exportStream(db: Db, cls: ProvenanceClass, dataset: string | null, format: ExportFormat): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const pages = exportRows(db, cls, dataset, format === "csv");
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (format === "csv" && !headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(toCsv(CSV_HEADER, [])));
        return;
      }
      const next = await pages.next();
      if (next.done) {
        controller.close();
        return;
      }
      const text =
        format === "ids"
          ? next.value.map((r) => `${r.id}\n`).join("")
          : toCsv([], next.value.map((r) => [r.id, r.class, r.dataset, r.provider, r.tag, r.occurredAt, r.reasons.join(" | ")])).replace(/^\r\n/, "");
      controller.enqueue(encoder.encode(text));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
}

/** One generation's stored judgement, by the id the pipeline recorded (or its sha256: key). */
export async function judgementOf(db: Db, id: string) {
  const key = id.startsWith("sha256:") ? id : `id:${id}`;
  const record = await db.usageRecord.findUnique({ where: { dedupeKey: key }, include: { judgement: true } });
  if (!record) return null;
  const j = record.judgement;
  const detail = j ? await db.provenanceDetail.findUnique({ where: { digest: j.detail } }) : null;
  // A pass that came to the same judgement wrote nothing but its dataset's time.
  const pass = await db.provenanceComputed.findUnique({ where: { dataset: record.dataset ?? "" } });
  const computedAt = j ? new Date(Math.max(j.judgedAt.getTime(), pass?.computedAt.getTime() ?? 0)).toISOString() : null;
  return {
    id,
    provider: record.provider,
    dataset: record.dataset,
    occurredAt: record.occurredAt?.toISOString() ?? null,
    class: j?.class ?? null,
    tag: detail?.tag ?? null,
    ambiguous: detail?.ambiguous ?? false,
    reasons: detail?.reasons ?? [],
    verdictBefore: detail?.verdictBefore ?? null,
    verdictAfter: detail?.verdictAfter ?? null,
    included: detail?.included ?? null,
    status: detail?.status ?? null,
    quantization: detail?.quantization ?? null,
    computedAt,
  };
}
