import Decimal from "decimal.js";
import { detectViewAlerts } from "../lib/alerts/detect-views";
import { putViewAlert } from "../lib/alerts/view-settings";
import type { Db } from "../lib/db/engines";
import { compare, readComparisonData } from "../lib/queries/comparison";
import { createView } from "../lib/saved-views";
import { DEMO_HISTORY_TRIGGER } from "./demo-history";
import { DEMO_MODEL, demoPatches } from "./demo-scenario";
import type { DriftOptions } from "./drift";
import { modelEndpoints } from "./endpoints";
import { startReplica, type Replica } from "./server";

// The live part of the demo, after its generated history: the saved view it seeds (alerts on) and
// the replica that drifts on every poll. A restarted demo continues from what its database stores:
// the drift's step counts the live polls already stored and its price offsets are the stored
// prices' distance from the replica's recorded ones, so the first poll after a restart moves one
// price by a cent or two, as any other poll does, instead of putting every drifted price back
// at once. The drift's price move lands on an endpoint the seeded view includes every other poll,
// so its first alert comes within two polls.

export const DEMO_DRIFT_SEED = 1;

/** The saved view a new demo database gets, with its alerts on (the demo's first alert comes from it). */
export const DEMO_VIEW = {
  name: "Full precision, 95% uptime (demo)",
  query: "xq=int4,fp4,mxfp4,nvfp4&upmin=95",
  createdBy: "demo",
} as const;

const MILLION = 1_000_000;

async function demoView(db: Db) {
  return db.savedView.findFirst({ where: { modelId: DEMO_MODEL.id, name: DEMO_VIEW.name, createdBy: DEMO_VIEW.createdBy }, orderBy: { id: "asc" } });
}

/**
 * Saves the demo's view with its alerts on, when the database has none, and records its answer on
 * the latest snapshot (the first evaluation says nothing), so the next poll's changes alert.
 * Returns its slug.
 */
export async function seedDemoView(db: Db): Promise<string> {
  const existing = await demoView(db);
  if (existing) return existing.slug;
  const view = await createView(db, { name: DEMO_VIEW.name, modelId: DEMO_MODEL.id, query: DEMO_VIEW.query }, DEMO_VIEW.createdBy);
  await putViewAlert(db, view.slug, { enabled: true });
  const latest = await db.modelPoll.findFirst({ where: { modelId: DEMO_MODEL.id, ok: true }, orderBy: { observedAt: "desc" } });
  if (latest?.observedAt) {
    const observedAt = latest.observedAt;
    await db.$transaction((tx) => detectViewAlerts(tx, DEMO_MODEL.id, observedAt));
  }
  return view.slug;
}

/** The replica's prices before any drift (its recorded data with the demo's patches), USD per million. */
function recordedPrices(): Map<string, { prompt: Decimal; completion: Decimal }> {
  const prices = new Map<string, { prompt: Decimal; completion: Decimal }>();
  for (const e of modelEndpoints(DEMO_MODEL, 0, false, demoPatches()).data.endpoints) {
    const pricing = e.pricing as { prompt: string; completion: string };
    prices.set(String(e.tag), { prompt: new Decimal(pricing.prompt).times(MILLION), completion: new Decimal(pricing.completion).times(MILLION) });
  }
  return prices;
}

export interface DemoDriftResume {
  drift: DriftOptions;
  /** Endpoints answers served so far, by model (the replica's uptime wobble continues from there). */
  endpointCalls: Record<string, number>;
}

/** Where the demo's drift stands according to the database: after its last stored live poll. */
export async function demoDriftFrom(db: Db): Promise<DemoDriftResume> {
  const live = { modelId: DEMO_MODEL.id, ok: true, cycle: { trigger: { not: DEMO_HISTORY_TRIGGER } } };
  const [polls, latest, view] = await Promise.all([
    db.modelPoll.count({ where: live }),
    db.modelPoll.findFirst({ where: live, orderBy: { observedAt: "desc" } }),
    demoView(db),
  ]);
  const priceOffsets: Record<string, number> = {};
  if (latest?.observedAt) {
    const recorded = recordedPrices();
    const samples = await db.endpointSample.findMany({
      where: { observedAt: latest.observedAt, endpoint: { modelId: DEMO_MODEL.id } },
      select: { inputPricePerM: true, outputPricePerM: true, endpoint: { select: { tag: true } } },
    });
    for (const s of samples) {
      const base = recorded.get(s.endpoint.tag);
      if (!base) continue;
      for (const [side, stored] of [["prompt", s.inputPricePerM], ["completion", s.outputPricePerM]] as const) {
        if (stored === null) continue;
        const cents = new Decimal(stored.toString()).minus(base[side]).times(100);
        if (!cents.isZero() && cents.isInteger()) priceOffsets[`${DEMO_MODEL.id}|${s.endpoint.tag}|${side}`] = cents.toNumber();
      }
    }
  }
  const focus = await demoViewIncludes(db, view);
  return { drift: { seed: DEMO_DRIFT_SEED, step: polls, priceOffsets, focus }, endpointCalls: { [DEMO_MODEL.id]: polls } };
}

/** The endpoints the demo's saved view includes on the stored facts (none while there is no view). */
async function demoViewIncludes(db: Db, view: { query: string } | null): Promise<string[]> {
  const data = view ? await readComparisonData(db, DEMO_MODEL.id) : null;
  if (!view || !data) return [];
  return compare(data, new URLSearchParams(view.query)).verdicts.filter((v) => v.included).map((v) => v.tag);
}

/** Points a running demo replica's drift at what the demo's saved view includes now (after seeding it). */
export async function focusDriftOnDemoView(db: Db, replica: Replica): Promise<string[]> {
  const focus = await demoViewIncludes(db, await demoView(db));
  if (replica.state.drift) replica.state.drift.focus = focus;
  return focus;
}

/** The demo's replica: the state its history ends in, drifting on from where the database left it. */
export async function startDemoReplica(db: Db, port = 0): Promise<Replica> {
  const resume = await demoDriftFrom(db);
  return startReplica(port, "127.0.0.1", { patches: demoPatches(), drift: resume.drift, endpointCalls: resume.endpointCalls });
}
