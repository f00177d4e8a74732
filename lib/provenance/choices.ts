import "server-only";
import { z } from "zod";
import type { Db } from "../db/engines";
import { SLUG } from "../saved-views";
import { rejudgeNow } from "./hooks";
import { requestRejudge } from "./rejudge-requests";

// Which saved view each dataset's pipeline ran under. An import may name its own view instead
// (POST /api/usage?view=slug), which wins over the dataset's.

export const datasetViewInput = z.object({
  /** "" for the records without a dataset. */
  dataset: z.string().trim().max(80),
  /** The view's short link; null: no view (its generations are judged unverified). */
  view: z.string().regex(SLUG, "a saved view's short link, 6-16 lowercase letters and digits").nullable(),
});

export interface DatasetViewChoice {
  dataset: string;
  view: { slug: string; name: string; modelId: string };
  chosenAt: string;
}

export async function listDatasetViews(db: Db): Promise<DatasetViewChoice[]> {
  const rows = await db.provenanceViewChoice.findMany({ include: { view: true }, orderBy: { dataset: "asc" } });
  return rows.map((r) => ({ dataset: r.dataset, view: { slug: r.view.slug, name: r.view.name, modelId: r.view.modelId }, chosenAt: r.chosenAt.toISOString() }));
}

/** Sets (or clears) a dataset's view and judges its generations again (lib/provenance/hooks.ts). */
export async function chooseDatasetView(db: Db, raw: z.input<typeof datasetViewInput>): Promise<{ ok: true } | { ok: false; field: string; message: string }> {
  const input = datasetViewInput.parse(raw);
  const view = input.view === null ? null : await db.savedView.findUnique({ where: { slug: input.view } });
  if (input.view !== null && !view) return { ok: false, field: "view", message: `no saved view ${input.view}` };
  const reason = view === null ? "its view was cleared" : `view ${view.slug} was chosen`;
  // Asked before the change, so a process that dies after it leaves the request for the job.
  await requestRejudge(db, { dataset: input.dataset }, reason);
  if (view === null) {
    await db.provenanceViewChoice.deleteMany({ where: { dataset: input.dataset } });
  } else {
    await db.provenanceViewChoice.upsert({
      where: { dataset: input.dataset },
      create: { dataset: input.dataset, viewId: view.id },
      update: { viewId: view.id, chosenAt: new Date() },
    });
  }
  await rejudgeNow(db, { dataset: input.dataset }, reason);
  return { ok: true };
}

/** The id of the view with this short link, for an import that names one. */
export async function viewIdBySlug(db: Db, slug: string): Promise<number | null> {
  if (!SLUG.test(slug)) return null;
  return (await db.savedView.findUnique({ where: { slug }, select: { id: true } }))?.id ?? null;
}
