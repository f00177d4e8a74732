import type { Db } from "../lib/db/engines";
import { createInChunks } from "../lib/db/one-connection";
import type { Prisma } from "../lib/db/generated/client";
import { DEFAULT_UPTIME_THRESHOLD, diffSnapshots, endpointState, type EndpointState } from "../lib/history/changes";
import { rollupHistory } from "../lib/history/rollup";
import { endpointsResponseSchema } from "../lib/openrouter/schemas";
import { normaliseEndpoints, type NormalisedSnapshot } from "../lib/poller/normalise";
import { writeSnapshot } from "../lib/poller/store";
import { DEMO_MODEL, HISTORY_DAYS, responseAt } from "./demo-scenario";

// The demo's 30 days of history, generated as the poller would have stored it. The last 2 days
// have a poll every 5 minutes, as the scheduler polls; the 28 days before them once an hour (a
// month of 5-minute polls, ~100k sample rows, took minutes of start-up on the embedded engine;
// the 7- and 30-day charts use hourly and 6-hour buckets, so they look the same). Every generated poll is an endpoints response in OpenRouter's shape (from
// demo-scenario.ts), parsed and normalised by the poller's own code, then stored one of two ways:
//
// - A poll where something changes (the first one, and each one where the poller's change
//   detection, diffSnapshots, finds a change or an endpoint's static facts differ) is written by
//   the poller's writeSnapshot at its past time: endpoints, versions, samples and the change log
//   are recorded by the real code, in its transaction.
// - The ~1,250 polls in between, where by the same diffSnapshots nothing changes, are inserted in
//   batches (their sample rows reuse the versions the last written snapshot stored, which is what
//   writeSnapshot would do); one poll at a time would take minutes on the embedded engine. These
//   keep no raw response body.
//
// Then the roll-up the poller runs after each cycle makes the hourly rows. Every poll and cycle is
// marked: ModelPoll.demo = true, PollCycle.trigger = "demo-history".

export const DEMO_HISTORY_TRIGGER = "demo-history";
const FIVE_MINUTES = 5 * 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The most recent days are polled every 5 minutes, the days before once an hour. */
export const FINE_DAYS = 2;

export interface DemoHistoryOptions {
  /** The end of the history (the last generated poll); default now, rounded down to 5 minutes. */
  end?: Date;
  days?: number;
  /** Raw rows older than this are rolled up and removed, as RETENTION_DAYS does. */
  retentionDays?: number;
  seed?: number;
  uptimeThreshold?: number;
}

export interface DemoHistoryResult {
  polls: number;
  /** Polls written one by one through writeSnapshot (those where something changed). */
  writtenBySnapshot: number;
  from: Date;
  end: Date;
  changes: number;
  hourlyRows: number;
}

/** The instants of the generated polls, oldest first: hourly, then every 5 minutes for FINE_DAYS up to `end`. */
export function demoPollTimes(end: Date, days = HISTORY_DAYS): Date[] {
  const times: Date[] = [];
  const fineFrom = end.getTime() - Math.min(days, FINE_DAYS) * DAY;
  for (let t = end.getTime() - days * DAY + HOUR; t < fineFrom; t += HOUR) times.push(new Date(t));
  for (let t = fineFrom; t <= end.getTime(); t += FIVE_MINUTES) times.push(new Date(t));
  return times;
}

/** Whether the database already holds polls of the demo model (then nothing is generated). */
export async function hasDemoModelPolls(db: Db): Promise<boolean> {
  return (await db.modelPoll.count({ where: { modelId: DEMO_MODEL.id } })) > 0;
}

interface PendingPoll {
  at: Date;
  snapshot: NormalisedSnapshot;
}

export async function generateDemoHistory(db: Db, options: DemoHistoryOptions = {}): Promise<DemoHistoryResult> {
  const end = options.end ?? new Date(Math.floor(Date.now() / FIVE_MINUTES) * FIVE_MINUTES);
  const seed = options.seed ?? 1;
  const threshold = options.uptimeThreshold ?? DEFAULT_UPTIME_THRESHOLD;
  const modelId = DEMO_MODEL.id;
  const times = demoPollTimes(end, options.days ?? HISTORY_DAYS);
  await db.watchedModel.createMany({ data: [{ id: modelId }], skipDuplicates: true });
  const changesBefore = await db.changeEvent.count({ where: { modelId } });

  let previous: { state: EndpointState[]; facts: Map<string, string> } | null = null;
  let stored = new Map<string, { endpointId: number; versionId: number }>();
  let pending: PendingPoll[] = [];
  let writtenBySnapshot = 0;

  for (const at of times) {
    const raw = JSON.stringify(responseAt(at, end, seed));
    const snapshot = normaliseEndpoints(endpointsResponseSchema.parse(JSON.parse(raw)));
    const state = snapshot.endpoints.map(endpointState);
    const facts = new Map(snapshot.endpoints.map((e) => [e.tag, e.factsHash]));
    const quiet =
      previous !== null &&
      diffSnapshots(previous.state, state, threshold).length === 0 &&
      facts.size === previous.facts.size &&
      [...facts].every(([tag, hash]) => previous?.facts.get(tag) === hash);
    if (quiet) {
      pending.push({ at, snapshot });
    } else {
      await insertQuietPolls(db, modelId, pending, stored);
      pending = [];
      const cycle = await db.pollCycle.create({ data: { trigger: DEMO_HISTORY_TRIGGER, startedAt: at, finishedAt: at }, select: { id: true } });
      await writeSnapshot(db, snapshot, {
        cycleId: cycle.id,
        modelId,
        startedAt: at,
        observedAt: at,
        finishedAt: at,
        attempts: 1,
        demo: true,
        raw,
        rawJson: JSON.parse(raw),
        uptimeThreshold: threshold,
      });
      writtenBySnapshot += 1;
      stored = await storedVersions(db, modelId, at);
    }
    previous = { state, facts };
  }
  await insertQuietPolls(db, modelId, pending, stored);
  // writeSnapshot keeps lastSeenAt current; the batched polls saw every endpoint too.
  await db.endpoint.updateMany({ where: { modelId, lastSeenAt: { lt: end }, tag: { in: [...(previous?.facts.keys() ?? [])] } }, data: { lastSeenAt: end } });

  // The roll-up the poller runs after each cycle, as of the end of the history, until it is done.
  let hourlyRows = 0;
  for (;;) {
    const result = await rollupHistory(db, { retentionDays: options.retentionDays ?? 30, now: end, batchHours: 24 * 8 });
    hourlyRows += result.hoursInserted;
    if (result.complete) break;
  }
  const changes = (await db.changeEvent.count({ where: { modelId } })) - changesBefore;
  return { polls: times.length, writtenBySnapshot, from: times[0], end, changes, hourlyRows };
}

/** Each endpoint's id and the version its sample at `at` points to (what the next quiet polls reuse). */
async function storedVersions(db: Db, modelId: string, at: Date) {
  const rows = await db.endpointSample.findMany({
    where: { observedAt: at, endpoint: { modelId } },
    select: { endpointId: true, versionId: true, endpoint: { select: { tag: true } } },
  });
  return new Map(rows.map((r) => [r.endpoint.tag, { endpointId: r.endpointId, versionId: r.versionId }]));
}

/** Polls where nothing changed, in batches: a cycle, a poll record and a sample per endpoint each. */
async function insertQuietPolls(
  db: Db,
  modelId: string,
  polls: PendingPoll[],
  stored: Map<string, { endpointId: number; versionId: number }>,
): Promise<void> {
  if (polls.length === 0) return;
  const cycles = await db.pollCycle.createManyAndReturn({
    data: polls.map((p) => ({ trigger: DEMO_HISTORY_TRIGGER, startedAt: p.at, finishedAt: p.at })),
    select: { id: true, startedAt: true },
  });
  const cycleAt = new Map(cycles.map((c) => [c.startedAt.getTime(), c.id]));
  const samples: Prisma.EndpointSampleCreateManyInput[] = [];
  const records: Prisma.ModelPollCreateManyInput[] = [];
  for (const { at, snapshot } of polls) {
    const cycleId = cycleAt.get(at.getTime());
    if (cycleId === undefined) throw new Error(`No cycle was created for the poll at ${at.toISOString()}`);
    records.push({ cycleId, modelId, startedAt: at, finishedAt: at, observedAt: at, ok: true, attempts: 1, endpointCount: snapshot.endpoints.length, demo: true });
    for (const e of snapshot.endpoints) {
      const ids = stored.get(e.tag);
      if (!ids) throw new Error(`The endpoint ${e.tag} has no stored version to reuse`);
      samples.push({
        ...ids,
        observedAt: at,
        ...e.sample,
        inputPricePerM: e.sample.inputPricePerM?.toString() ?? null,
        outputPricePerM: e.sample.outputPricePerM?.toString() ?? null,
        cacheReadPricePerM: e.sample.cacheReadPricePerM?.toString() ?? null,
      });
    }
  }
  await db.modelPoll.createMany({ data: records });
  await createInChunks(samples, (data) => db.endpointSample.createMany({ data }));
}
