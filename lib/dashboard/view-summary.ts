import Decimal from "decimal.js";
import { estimate } from "../budget/cost";
import { compare, type ComparisonData } from "../queries/comparison";
import type { SavedViewEntry } from "../saved-views";
import { budgetParsers } from "../view-state/budget";
import type { UptimeWindow } from "../rules/vocabulary";

// What the home page says about one view of a model: how many endpoints its rules include in the
// latest snapshot, the cheapest of them and the worst uptime among them. Decided by compare(),
// the same function (and so the same rules engine) the model page and the routing API use, on
// the same stored facts, so the numbers agree with the model page opened on that view. Pure.

export interface ViewSummary {
  /** null for the model page's default view (no saved view). */
  slug: string | null;
  name: string;
  /** The link that opens this view on the model page. */
  href: string;
  included: number;
  total: number;
  /** The cheapest included endpoint for the view's plan (the calculator's "Cheapest included"). */
  cheapest: {
    provider: string;
    tag: string;
    inputPricePerM: string;
    outputPricePerM: string;
    /** The plan's cost there, exact, as a decimal string. */
    planCost: string;
  } | null;
  /** Included endpoints without a usable price (never counted as cheapest). */
  unpriced: number;
  /** The lowest uptime among the included endpoints, over the view's uptime window. */
  worstUptime: { value: number; provider: string; tag: string } | null;
  uptimeWindow: UptimeWindow;
  /** Parts of the saved link that could not be read (and fell back to their defaults). */
  ignored: string[];
}

export const DEFAULT_VIEW_NAME = "Default view";

/** One summary per saved view of the model, or the default view's when none is saved. */
export function summariseViews(data: ComparisonData, views: readonly SavedViewEntry[]): ViewSummary[] {
  const modelPath = `/models/${data.snapshot.model.id}`;
  if (views.length === 0) return [summariseView(data, null, DEFAULT_VIEW_NAME, "", modelPath)];
  return views.map((v) => summariseView(data, v.slug, v.name, v.query, `/v/${v.slug}`));
}

export function summariseView(data: ComparisonData, slug: string | null, name: string, query: string, href: string): ViewSummary {
  const params = new URLSearchParams(query);
  const comparison = compare(data, params);
  const byTag = new Map(data.snapshot.endpoints.map((e) => [e.tag, e]));
  const included = comparison.verdicts.filter((v) => v.included).flatMap((v) => byTag.get(v.tag) ?? []);

  // The plan of the link (the calculator's `ds`), or the calculator's default plan.
  const plan = budgetParsers.ds.parseServerSide(params.get("ds") ?? undefined);
  // Which provider is cheapest does not depend on the budget, only on the plan.
  const costs = estimate(plan, new Decimal(0), included);
  const cheapest = costs.cheapest
    ? {
        provider: costs.cheapest.provider,
        tag: costs.cheapest.tag,
        inputPricePerM: costs.cheapest.inputPricePerM,
        outputPricePerM: costs.cheapest.outputPricePerM,
        planCost: costs.cheapest.total.toFixed(),
      }
    : null;

  const window = comparison.state.upw;
  let worstUptime: ViewSummary["worstUptime"] = null;
  for (const e of included) {
    const value = { "5m": e.uptime5m, "30m": e.uptime30m, "1d": e.uptime1d }[window];
    if (value === null) continue;
    if (!worstUptime || value < worstUptime.value) worstUptime = { value, provider: e.provider, tag: e.tag };
  }
  return {
    slug,
    name,
    href,
    included: included.length,
    total: data.snapshot.endpoints.length,
    cheapest,
    unpriced: costs.unpriced.length,
    worstUptime,
    uptimeWindow: window,
    ignored: comparison.ignored,
  };
}
