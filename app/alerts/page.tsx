import type { Metadata } from "next";
import { AlertChannels } from "@/components/alerts/alert-channels";
import { listChannels } from "@/lib/alerts/channels";
import { getDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Alerts" };

// The alerts page: where messages go (channels, with their delivery history) and, in the
// "conditions" section, what is watched (budget conditions; per-view conditions live with each view).
export default async function AlertsPage() {
  const channels = await listChannels(await getDb());
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
      {/* What is watched: the budget conditions (and a summary of the views' conditions) go here. */}
      <section id="conditions" aria-label="Alert conditions" className="empty:hidden" />
    </div>
  );
}
