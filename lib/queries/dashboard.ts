import "server-only";
import type { Db } from "../db/engines";
import { summariseViews, type ViewSummary } from "../dashboard/view-summary";
import { listViews } from "../saved-views";
import { currentBudget } from "../spend/budget";
import { spendIsDemo, spendOverview, type SpendOverview } from "../spend/queries";
import { readComparisonData } from "./comparison";
import { listWatchedModels, type WatchedModelSummary } from "./models";

// The home page's own questions, each one query aggregated in SQL. The rest of the dashboard
// reuses the reads of the model page (latest snapshot, saved views) and of /spend.

export const CHANGE_WINDOW_HOURS = 24;
const HOUR_MS = 3_600_000;

export interface RecentChanges {
  /** Changes in the window, in all. */
  total: number;
  /** Changes per hour, oldest hour first (CHANGE_WINDOW_HOURS entries; 0 where none). */
  perHour: number[];
  /** The start of the window (the first hour's start). */
  since: string;
}

/** How many changes each watched model logged in the last 24 hours, hour by hour. */
export async function recentChangesByModel(db: Db, now = new Date(), hours = CHANGE_WINDOW_HOURS): Promise<Map<string, RecentChanges>> {
  const since = new Date(now.getTime() - hours * HOUR_MS);
  const rows = await db.$queryRaw<Array<{ model_id: string; hour: Date; n: number }>>`
    SELECT c."modelId" AS model_id, date_bin(interval '1 hour', c."observedAt", ${since}::timestamptz) AS hour, count(*)::int AS n
      FROM "ChangeEvent" c
      JOIN "WatchedModel" m ON m.id = c."modelId" AND m.active
     WHERE c."observedAt" > ${since} AND c."observedAt" <= ${now}
     GROUP BY 1, 2`;
  const byModel = new Map<string, Array<{ hour: Date; n: number }>>();
  for (const r of rows) byModel.set(r.model_id, [...(byModel.get(r.model_id) ?? []), { hour: r.hour, n: r.n }]);
  return new Map([...byModel].map(([id, counts]) => [id, fillHours(counts, since, hours)]));
}

/** Every hour of the window with its count, 0 for an hour without a change. Pure. */
export function fillHours(counts: ReadonlyArray<{ hour: Date; n: number }>, since: Date, hours: number): RecentChanges {
  const perHour = new Array<number>(hours).fill(0);
  for (const { hour, n } of counts) {
    const i = Math.floor((hour.getTime() - since.getTime()) / HOUR_MS);
    // A change exactly at `now` falls in a bin that starts at the window's end: it is the last hour's.
    perHour[Math.min(hours - 1, Math.max(0, i))] += n;
  }
  return { total: perHour.reduce((a, n) => a + n, 0), perHour, since: since.toISOString() };
}

export interface ModelDashboard {
  model: WatchedModelSummary;
  /** When the snapshot the views were decided on was taken; null before the first good poll. */
  snapshotAt: string | null;
  views: ViewSummary[];
  /** True when the model has no saved view and the default view is summarised instead. */
  defaultView: boolean;
  changes: RecentChanges;
}

export interface Dashboard {
  models: ModelDashboard[];
  spend: SpendOverview;
  /** Whether any figure shown came from the local replica (demo data). */
  demo: boolean;
  at: string;
}

/** Everything the home page shows, read with the model page's and the spend page's own reads. */
export async function loadDashboard(db: Db, now = new Date()): Promise<Dashboard> {
  const [models, changes, setting] = await Promise.all([listWatchedModels(db), recentChangesByModel(db, now), currentBudget(db)]);
  const [perModel, spend, spendDemo] = await Promise.all([
    Promise.all(
      models.map(async (model): Promise<ModelDashboard> => {
        const [data, views] = await Promise.all([readComparisonData(db, model.id), listViews(db, model.id)]);
        const summaries = data?.snapshot.polledAt ? summariseViews(data, views) : [];
        return {
          model,
          snapshotAt: data?.snapshot.polledAt ?? null,
          views: summaries,
          defaultView: views.length === 0,
          changes: changes.get(model.id) ?? fillHours([], new Date(now.getTime() - CHANGE_WINDOW_HOURS * HOUR_MS), CHANGE_WINDOW_HOURS),
        };
      }),
    ),
    spendOverview(db, setting, now),
    spendIsDemo(db, setting ? setting.startAt : null),
  ]);
  return { models: perModel, spend, demo: spendDemo || models.some((m) => m.demo), at: now.toISOString() };
}
