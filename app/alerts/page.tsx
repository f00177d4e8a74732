import type { Metadata } from "next";
import { AlertChannels } from "@/components/alerts/alert-channels";
import { WatchedConditions } from "@/components/alerts/watched-conditions";
import { DemoBanner } from "@/components/layout/demo-banner";
import { listChannels } from "@/lib/alerts/channels/store";
import { getBudgetAlert } from "@/lib/alerts/detect-budget";
import { listWatchedViews } from "@/lib/alerts/watched";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { showsDemoData } from "@/lib/queries/demo";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Alerts" };

// The alerts page: where messages go (channels, with their delivery history) and what is watched
// (each saved view's conditions and the budget's, changed where they live: the view, /spend).
export default async function AlertsPage() {
  const db = await getDb();
  const [channels, views, budget, demo] = await Promise.all([listChannels(db), listWatchedViews(db), getBudgetAlert(db), showsDemoData()]);
  return (
    <div className="space-y-6">
      {demo && <DemoBanner />}
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Alerts</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Saved views and the budget tell the team when something changes: a price, an included provider, a probe verdict, spend. Each message goes to
          every enabled channel below, in order, retried until it is delivered.
        </p>
        {env.ALLOW_PRIVATE_WEBHOOKS && (
          <p role="note" aria-label="Private webhook addresses allowed" className="mt-2 max-w-3xl rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-sm text-slate-800">
            This server lets webhooks reach loopback and private addresses (<code className="font-mono">ALLOW_PRIVATE_WEBHOOKS=true</code>
            {demo ? ", which npm run demo sets so that a receiver on this machine can be tried" : ""}). Elsewhere such an address is refused.
          </p>
        )}
      </div>
      <AlertChannels initialChannels={channels} />
      <WatchedConditions views={views} budget={budget} />
    </div>
  );
}
