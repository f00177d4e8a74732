import type { Metadata } from "next";
import { NotificationList } from "@/components/alerts/notification-list";
import { DemoBanner } from "@/components/layout/demo-banner";
import { listNotifications } from "@/lib/alerts/notifications";
import { getDb } from "@/lib/database";
import { showsDemoData } from "@/lib/queries/demo";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Notifications" };

/** The in-app list of alerts: every saved view's events and the budget's, newest first. */
export default async function NotificationsPage() {
  const [{ notifications, unread }, demo] = await Promise.all([listNotifications(await getDb(), { limit: 100 }), showsDemoData()]);
  return (
    <div className="mx-auto max-w-4xl space-y-4">
      {demo && <DemoBanner />}
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Notifications</h1>
        <p className="mt-1 text-sm text-slate-600">
          What changed in the answers of the saved views with alerts on, and the budget’s alerts, newest first (the latest 100).
          Each view also has an Atom feed at <code className="font-mono">/v/&#123;slug&#125;/feed.xml</code>.
        </p>
      </div>
      <NotificationList notifications={notifications} unread={unread} />
    </div>
  );
}
