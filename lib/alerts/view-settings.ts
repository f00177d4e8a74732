import "server-only";
import { z } from "zod";
import type { Db } from "../db/engines";
import { Prisma } from "../db/generated/client";
import { SLUG } from "../saved-views";

// A saved view's alert conditions (the ViewAlert row): read and changed by
// GET/PUT /api/views/{slug}/alerts and the "Alerts" control of the saved views panel.

export const viewAlertInput = z
  .object({
    enabled: z.boolean(),
    includedSet: z.boolean(),
    routing: z.boolean(),
    endpointChange: z.boolean(),
    uptime: z.boolean(),
    uptimeThreshold: z.number().min(0, "must be between 0 and 100").max(100, "must be between 0 and 100").nullable(),
    probeVerdict: z.boolean(),
    provenanceSuspect: z.boolean(),
  })
  .partial()
  .strict();

export type ViewAlertInput = z.infer<typeof viewAlertInput>;

export interface ViewAlertSettings {
  slug: string;
  enabled: boolean;
  includedSet: boolean;
  routing: boolean;
  endpointChange: boolean;
  uptime: boolean;
  uptimeThreshold: number | null;
  probeVerdict: boolean;
  /** Generations judged trusted under the view turned suspect (provenance, after a re-judgement). */
  provenanceSuspect: boolean;
  /** Whether a first evaluation has recorded the view's answer (events start from the next change). */
  watching: boolean;
  updatedAt: string | null;
}

const DEFAULTS = { enabled: false, includedSet: true, routing: true, endpointChange: true, uptime: true, uptimeThreshold: null, probeVerdict: true, provenanceSuspect: true };

type Row = Omit<ViewAlertSettings, "slug" | "watching" | "updatedAt"> & { state: unknown; updatedAt: Date };

function toSettings(slug: string, row: Row | null): ViewAlertSettings {
  if (!row) return { slug, ...DEFAULTS, watching: false, updatedAt: null };
  const { state, updatedAt, ...rest } = row;
  return {
    slug,
    enabled: rest.enabled,
    includedSet: rest.includedSet,
    routing: rest.routing,
    endpointChange: rest.endpointChange,
    uptime: rest.uptime,
    uptimeThreshold: rest.uptimeThreshold,
    probeVerdict: rest.probeVerdict,
    provenanceSuspect: rest.provenanceSuspect,
    watching: rest.enabled && state !== null,
    updatedAt: updatedAt.toISOString(),
  };
}

/** The view's conditions (alerts off with every condition on when never set); null: no such view. */
export async function getViewAlert(db: Db, slug: string): Promise<ViewAlertSettings | null> {
  if (!SLUG.test(slug)) return null;
  const view = await db.savedView.findUnique({ where: { slug }, include: { alert: true } });
  return view ? toSettings(slug, view.alert) : null;
}

/**
 * Changes the conditions. Turning alerts on (or changing what the uptime condition compares with)
 * forgets the stored answer: the next poll records it again and says nothing, so switching on
 * never floods the team with what changed while alerts were off.
 */
export async function putViewAlert(db: Db, slug: string, input: ViewAlertInput): Promise<ViewAlertSettings | null> {
  if (!SLUG.test(slug)) return null;
  return db.$transaction(async (tx) => {
    const view = await tx.savedView.findUnique({ where: { slug }, include: { alert: true } });
    if (!view) return null;
    const before = view.alert;
    const turnedOn = input.enabled === true && !before?.enabled;
    const thresholdMoved = input.uptimeThreshold !== undefined && input.uptimeThreshold !== (before?.uptimeThreshold ?? null);
    const row = await tx.viewAlert.upsert({
      where: { viewId: view.id },
      create: { viewId: view.id, ...DEFAULTS, ...input },
      update: { ...input, ...(turnedOn || thresholdMoved ? { state: Prisma.DbNull } : {}) },
    });
    return toSettings(slug, row);
  });
}
