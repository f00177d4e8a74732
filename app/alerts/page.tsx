import type { Metadata } from "next";
import { AlertChannels } from "@/components/alerts/alert-channels";
import { WatchedConditions } from "@/components/alerts/watched-conditions";
import { listChannels } from "@/lib/alerts/channels";
import { getBudgetAlert } from "@/lib/alerts/detect-budget";
import { listWatchedViews } from "@/lib/alerts/watched";
import { getDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Alerts" };

// The alerts page: where messages go (channels, with their delivery history) and what is watched
// (each saved view's conditions and the budget's, changed where they live: the view, /spend).
export default async function AlertsPage() {
  const db = await getDb();
  const [channels, views, budget] = await Promise.all([listChannels(db), listWatchedViews(db), getBudgetAlert(db)]);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Alerts</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Saved views and the budget tell the team when something changes: a price, an included provider, a probe verdict, spend. Each message goes to
          every enabled channel below, in order, retried until it is delivered.
        </p>
      </div>
      <AlertChannels initialChannels={channels} />
      <WatchedConditions views={views} budget={budget} />
    </div>
  );
}
