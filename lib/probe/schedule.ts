import "server-only";
import Decimal from "decimal.js";
import { z } from "zod";
import type { Db } from "../db/engines";
import { createProbeRun, estimateProbe, money } from "./runs";

// The optional scheduled re-probe, off by default. For a model whose schedule is on, after each
// poll cycle (lib/jobs/after-cycle.ts) a run is queued when one is due:
//   - weekly: the model's latest probe (by hand or scheduled) is a week old, or there is none;
//   - on a change: the poller logged an endpoint that appeared, or changed its quantization or tag
//     (ChangeEvent kinds added / quantization / tag), since the schedule last looked.
// Never more than one active run per model (ProbeActiveRun; a change seen while the model is busy
// is kept and probed after), and never past the monthly cap: this month's scheduled runs' cost
// plus the new run's estimate must stay within it, and the run's own cap is what is left. A run
// that is due but not queued is skipped with its reason stored, which the page shows.

export const DEFAULT_MONTHLY_CAP_USD = "5.00";
export const WEEK_MS = 7 * 24 * 3_600_000;
export const SCHEDULE_CHANGE_KINDS = ["added", "quantization", "tag"] as const;

export const scheduleInputSchema = z.object({
  enabled: z.boolean({ error: "must be true or false" }),
  monthlyCapUsd: z
    .string({ error: 'must be a decimal string of dollars, e.g. "5.00"' })
    .regex(/^\d{1,6}(\.\d{1,6})?$/, 'must be a decimal string of dollars, e.g. "5.00"')
    .refine((v) => !/^\d+(\.\d+)?$/.test(v) || new Decimal(v).greaterThan(0), "must be more than 0"),
});
export type ScheduleInput = z.infer<typeof scheduleInputSchema>;

export interface ScheduleView {
  modelId: string;
  enabled: boolean;
  monthlyCapUsd: string;
  /** What this calendar month's (UTC) scheduled runs of the model cost so far. */
  monthSpentUsd: string;
  lastQueuedAt: string | null;
  /** A change seen while a run was active, to be probed next. */
  pendingChange: string | null;
  skipped: { reason: string; at: string } | null;
}

function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** This month's (UTC) cost of the model's scheduled runs, summed in SQL. */
export async function scheduledSpendThisMonth(db: Db, modelId: string, now = new Date()): Promise<Decimal> {
  const sum = await db.probeRun.aggregate({
    where: { modelId, scheduledBy: { not: null }, createdAt: { gte: monthStart(now) } },
    _sum: { costUsd: true, uncertainUsd: true },
  });
  return new Decimal(sum._sum.costUsd?.toString() ?? 0).plus(sum._sum.uncertainUsd?.toString() ?? 0);
}

export async function getSchedule(db: Db, modelId: string, now = new Date()): Promise<ScheduleView> {
  const row = await db.probeSchedule.findUnique({ where: { modelId } });
  return {
    modelId,
    enabled: row?.enabled ?? false,
    monthlyCapUsd: money(row?.monthlyCapUsd.toString() ?? DEFAULT_MONTHLY_CAP_USD),
    monthSpentUsd: money(await scheduledSpendThisMonth(db, modelId, now)),
    lastQueuedAt: row?.lastQueuedAt?.toISOString() ?? null,
    pendingChange: row?.pendingChange ?? null,
    skipped: row?.skippedReason && row.skippedAt ? { reason: row.skippedReason, at: row.skippedAt.toISOString() } : null,
  };
}

/** Turns the schedule on or off and sets its cap. Turning it on looks only at changes from now on. */
export async function saveSchedule(db: Db, modelId: string, input: ScheduleInput): Promise<ScheduleView> {
  const existing = await db.probeSchedule.findUnique({ where: { modelId } });
  const turningOn = input.enabled && !existing?.enabled;
  const latestChange = turningOn ? await db.changeEvent.aggregate({ where: { modelId }, _max: { id: true } }) : null;
  const fresh = turningOn ? { lastChangeId: latestChange?._max.id ?? 0, pendingChange: null, skippedReason: null, skippedAt: null } : {};
  await db.probeSchedule.upsert({
    where: { modelId },
    create: { modelId, enabled: input.enabled, monthlyCapUsd: input.monthlyCapUsd, ...fresh },
    update: { enabled: input.enabled, monthlyCapUsd: input.monthlyCapUsd, ...fresh },
  });
  return getSchedule(db, modelId);
}

export type ScheduleOutcome =
  | { modelId: string; action: "idle" }
  | { modelId: string; action: "queued"; runId: number; because: string }
  | { modelId: string; action: "waiting"; because: string; reason: string }
  | { modelId: string; action: "skipped"; because: string; reason: string };

function describeChange(c: { kind: string; tag: string; before: string | null; after: string | null }): string {
  if (c.kind === "added") return `added ${c.tag}`;
  if (c.kind === "tag") return `tag ${c.before} → ${c.after}`;
  return `quantization of ${c.tag} ${c.before ?? "none"} → ${c.after ?? "none"}`;
}

async function scheduleOne(db: Db, schedule: { modelId: string; monthlyCapUsd: Decimal.Value; lastChangeId: number; pendingChange: string | null }, now: Date): Promise<ScheduleOutcome> {
  const { modelId } = schedule;
  const changes = await db.changeEvent.findMany({
    where: { modelId, id: { gt: schedule.lastChangeId }, kind: { in: [...SCHEDULE_CHANGE_KINDS] } },
    orderBy: { id: "asc" },
    select: { id: true, kind: true, tag: true, before: true, after: true },
  });
  const lastChangeId = changes.at(-1)?.id ?? schedule.lastChangeId;
  const described = changes.map(describeChange);
  const change = [schedule.pendingChange, ...described].filter((c): c is string => Boolean(c));
  const latestRun = await db.probeRun.findFirst({ where: { modelId }, orderBy: { id: "desc" }, select: { createdAt: true } });
  const weeklyDue = !latestRun || now.getTime() - latestRun.createdAt.getTime() >= WEEK_MS;
  if (change.length === 0 && !weeklyDue) return { modelId, action: "idle" };
  const because = change.length === 0 ? "weekly" : change.length === 1 ? change[0] : `${change[0]} and ${change.length - 1} more change${change.length > 2 ? "s" : ""}`;

  const active = await db.probeActiveRun.findUnique({ where: { modelId } });
  if (active) {
    // One run at a time: a change is kept for the run after this one.
    await db.probeSchedule.update({ where: { modelId }, data: { lastChangeId, pendingChange: change.length > 0 ? because : null } });
    return { modelId, action: "waiting", because, reason: `probe ${active.runId} is active` };
  }

  const skip = async (reason: string): Promise<ScheduleOutcome> => {
    await db.probeSchedule.update({ where: { modelId }, data: { lastChangeId, pendingChange: null, skippedReason: reason, skippedAt: now } });
    return { modelId, action: "skipped", because, reason };
  };
  const estimate = await estimateProbe(db, modelId, {});
  if ("error" in estimate) return skip(`Skipped the ${because === "weekly" ? "weekly run" : `run for ${because}`}: ${estimate.error}`);
  const cap = new Decimal(schedule.monthlyCapUsd);
  const spent = await scheduledSpendThisMonth(db, modelId, now);
  const total = spent.plus(estimate.estimateUsd);
  if (total.greaterThan(cap)) {
    return skip(
      `Skipped the ${because === "weekly" ? "weekly run" : `run for ${because}`}: its estimate $${estimate.estimateUsd} on top of this month's ` +
        `$${money(spent)} would make $${money(total)}, over the monthly cap of $${money(cap)}`,
    );
  }
  // The run may spend what the month has left, never more; the runner stops before passing it.
  const left = cap.minus(spent).toDecimalPlaces(6, Decimal.ROUND_DOWN);
  const created = await createProbeRun(db, modelId, { maxCostUsd: left.toString() }, { scheduledBy: because });
  if (created.kind === "busy") return { modelId, action: "waiting", because, reason: created.message };
  if (created.kind !== "created") return skip(`Skipped the ${because === "weekly" ? "weekly run" : `run for ${because}`}: ${created.message}`);
  await db.probeSchedule.update({ where: { modelId }, data: { lastChangeId, pendingChange: null, lastQueuedAt: now, skippedReason: null, skippedAt: null } });
  return { modelId, action: "queued", runId: created.run.id, because };
}

/** Queues every due scheduled run; one model's failure does not stop the others. */
export async function runSchedules(db: Db, now = new Date()): Promise<ScheduleOutcome[]> {
  const schedules = await db.probeSchedule.findMany({ where: { enabled: true }, orderBy: { modelId: "asc" } });
  const outcomes: ScheduleOutcome[] = [];
  for (const s of schedules) {
    try {
      outcomes.push(await scheduleOne(db, { ...s, monthlyCapUsd: s.monthlyCapUsd.toString() }, now));
    } catch (err) {
      console.error(`[probe] scheduled re-probe of ${s.modelId} failed:`, (err as Error).message);
    }
  }
  return outcomes;
}
