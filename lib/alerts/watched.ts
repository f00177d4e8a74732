import "server-only";
import type { Db } from "../db/engines";

// Every saved view with its alert conditions (or off when none were saved), for the alerts page.

export interface WatchedView {
  slug: string;
  name: string;
  modelId: string;
  enabled: boolean;
  uptimeThreshold: number | null;
  conditions: { includedSet: boolean; routing: boolean; endpointChange: boolean; uptime: boolean; probeVerdict: boolean; provenanceSuspect: boolean };
}

export async function listWatchedViews(db: Db): Promise<WatchedView[]> {
  const views = await db.savedView.findMany({ include: { alert: true }, orderBy: [{ modelId: "asc" }, { name: "asc" }] });
  return views.map((v) => ({
    slug: v.slug,
    name: v.name,
    modelId: v.modelId,
    enabled: v.alert?.enabled ?? false,
    uptimeThreshold: v.alert?.uptimeThreshold ?? null,
    conditions: {
      includedSet: v.alert?.includedSet ?? true,
      routing: v.alert?.routing ?? true,
      endpointChange: v.alert?.endpointChange ?? true,
      uptime: v.alert?.uptime ?? true,
      probeVerdict: v.alert?.probeVerdict ?? true,
      provenanceSuspect: v.alert?.provenanceSuspect ?? true,
    },
  }));
}
