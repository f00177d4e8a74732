import Link from "next/link";
import type { BudgetAlertSettings } from "@/lib/alerts/detect-budget";
import type { WatchedView } from "@/lib/alerts/watched";

// What the alerts watch, in one place: each saved view with its conditions (changed on the view's
// "Alerts" control, on the model page) and the budget conditions (changed on /spend).

const CONDITION_LABELS: Array<[keyof WatchedView["conditions"], string]> = [
  ["includedSet", "included set"],
  ["routing", "routing export"],
  ["endpointChange", "endpoint changes"],
  ["uptime", "uptime"],
  ["probeVerdict", "probe verdicts"],
  ["provenanceSuspect", "trusted samples turned suspect"],
];

export function WatchedConditions({ views, budget }: { views: WatchedView[]; budget: BudgetAlertSettings }) {
  const watching = views.filter((v) => v.enabled);
  return (
    <section aria-labelledby="watched-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div>
        <h2 id="watched-heading" className="text-lg font-semibold">What is watched</h2>
        <p className="text-sm text-slate-600">
          {watching.length} of {views.length} saved views send alerts. A view’s conditions are set with its “Alerts” button in the Saved views panel of
          its model page.
        </p>
      </div>
      {views.length > 0 && (
        <ul aria-label="Saved views and their alerts" className="divide-y divide-slate-100 text-sm">
          {views.map((v) => (
            <li key={v.slug} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2">
              <span>
                <Link href={`/v/${v.slug}`} className="font-medium text-indigo-700 underline">{v.name}</Link>{" "}
                <span className="text-slate-500">{v.modelId}</span>
              </span>
              <span className={v.enabled ? "text-slate-700" : "text-slate-500"}>
                {v.enabled
                  ? `On: ${CONDITION_LABELS.filter(([key]) => v.conditions[key]).map(([, label]) => label).join(", ") || "no condition"}${
                      v.conditions.uptime ? ` (uptime below ${v.uptimeThreshold ?? "the view’s rule or 95"}%)` : ""
                    }`
                  : "Off"}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="text-sm text-slate-700">
        <span className="font-medium">Budget:</span>{" "}
        {budget.saved
          ? [budget.spendSteps && "spend at 50%, 80% and 100%", budget.runOut && "run-out before the plan is covered", budget.keyLimitBelowUsd && `key limit below $${budget.keyLimitBelowUsd}`]
              .filter(Boolean)
              .join(", ") || "every budget condition off"
          : "not set up yet"}{" "}
        (<Link href="/spend#budget-alerts-heading" className="text-indigo-700 underline">change on the Spend page</Link>).
      </p>
    </section>
  );
}
