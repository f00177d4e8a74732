import "server-only";
import Decimal from "decimal.js";
import { getBudgetAlert } from "../alerts/detect-budget";
import {
  activityByDayAndProvider,
  activityByProvider,
  activityStatus,
  chartDays,
  ACTIVITY_DAYS,
  type ActivityStatus,
  type ChartDay,
  type ProviderActualPrice,
} from "../activity/queries";
import { reconcile, type ReconciledDay } from "../activity/reconcile";
import type { Db } from "../db/engines";
import { env } from "../env";
import { keysOverview, type KeysOverview } from "../keys/overview";
import { currentPipelineKey } from "../keys/records";
import { keyChangesRefusal, managementClient } from "../openrouter/management-configured";
import { probeSpend } from "../probe/spend";
import { currentBudget } from "../spend/budget";
import { spendIsDemo, spendOverview, spendSeries } from "../spend/queries";
import { usageByDataset, usageByProvider, usageTotals } from "../usage/queries";
import type { Dataset } from "../budget/cost";

// Everything the spend page shows, loaded in one place: the page passes it down and its sections
// only draw. The "Keys" and "Actual spend per provider" sections need the management key: without
// one their data is null, and neither OpenRouter nor their tables are read.

/**
 * The "Keys" section: the account's keys read from OpenRouter now (each action reads the key again
 * before it changes anything: lib/keys/operations.ts), and why key changes are refused, if they are.
 * A page load within READ_REUSE_MS (2 s) of another viewer's of the same link shares that render
 * (lib/queries/shared-pages.ts), so the reading shown can be up to 2 s old.
 */
export interface KeysSectionData {
  overview: KeysOverview;
  refusal: string | null;
}

/** The "Actual spend per provider" section: stored activity, per day and provider, reconciled. */
export interface ActivitySectionData {
  /** How many UTC days back it covers. */
  days: number;
  chart: { days: ChartDay[]; providers: string[] };
  perProvider: ProviderActualPrice[];
  status: ActivityStatus;
  reconciled: ReconciledDay[];
  /** Whether any stored activity day is the replica's demo data. */
  demo: boolean;
  pipelineKeyChosen: boolean;
  /** The reconciliation's thresholds as the page states them ("1% or $0.01"). */
  tolerance: { percent: string; usd: string };
}

async function keysSectionData(db: Db): Promise<KeysSectionData | null> {
  const client = managementClient();
  if (!client) return null;
  return { overview: await keysOverview(db, client), refusal: keyChangesRefusal() };
}

async function activitySectionData(db: Db, now: Date): Promise<ActivitySectionData | null> {
  if (!managementClient()) return null;
  const pipeline = await currentPipelineKey(db);
  const [perDay, perProvider, status, reconciled] = await Promise.all([
    activityByDayAndProvider(db, now),
    activityByProvider(db, now),
    activityStatus(db),
    reconcile(db, pipeline?.hash ?? null, now),
  ]);
  const usd = new Decimal(env.RECONCILE_TOLERANCE_USD);
  return {
    days: ACTIVITY_DAYS,
    chart: chartDays(perDay, now),
    perProvider,
    status,
    reconciled,
    demo: perDay.some((r) => r.demo),
    pipelineKeyChosen: pipeline !== null,
    tolerance: { percent: env.RECONCILE_TOLERANCE_PERCENT, usd: usd.toFixed(Math.max(2, usd.decimalPlaces())) },
  };
}

export async function spendPageData(db: Db, plan: Dataset[], now = new Date()) {
  const setting = await currentBudget(db);
  const overview = await spendOverview(db, setting, now);
  const [demo, series, byProvider, byDataset, totals, probes, budgetAlert] = await Promise.all([
    spendIsDemo(db, setting ? new Date(setting.startAt) : null),
    overview.baseline ? spendSeries(db, new Date(overview.baseline.at), now, overview.baseline.usage) : Promise.resolve([]),
    usageByProvider(db),
    usageByDataset(db, plan),
    usageTotals(db),
    probeSpend(db),
    getBudgetAlert(db),
  ]);
  const [keys, activity] = await Promise.all([keysSectionData(db), activitySectionData(db, now)]);
  return {
    /** Only whether the key is set ever leaves this module. */
    keyConfigured: Boolean(env.OPENROUTER_API_KEY),
    overview,
    demo,
    series,
    byProvider,
    byDataset,
    totals,
    probes,
    budgetAlert,
    keys,
    activity,
  };
}

export type SpendPageData = Awaited<ReturnType<typeof spendPageData>>;
