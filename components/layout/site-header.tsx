import Link from "next/link";
import { connection } from "next/server";
import { unreadNotificationsForHeader } from "@/lib/queries/unread-notifications";

export async function SiteHeader() {
  await connection(); // the count is read per request, never baked into a build
  const unread = await unreadNotificationsForHeader();
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
        <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight text-slate-900">
          <span aria-hidden className="inline-block h-5 w-5 rounded bg-gradient-to-br from-indigo-500 to-emerald-500" />
          Routeboard
        </Link>
        <nav aria-label="Main" className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600">
          <Link href="/" className="hover:text-slate-900">
            Models
          </Link>
          <Link href="/spend" className="hover:text-slate-900">
            Spend
          </Link>
          <Link href="/provenance" className="hover:text-slate-900">
            Provenance
          </Link>
          <Link href="/alerts" className="hover:text-slate-900">
            Alerts
          </Link>
          <Link href="/notifications" className="inline-flex items-center gap-1 hover:text-slate-900" data-testid="notifications-link">
            Notifications
            {unread !== null && unread > 0 && (
              <span className="rounded-full bg-indigo-700 px-1.5 text-xs font-medium text-white" data-testid="unread-count">
                {unread > 99 ? "99+" : unread}
                <span className="sr-only"> unread</span>
              </span>
            )}
          </Link>
        </nav>
      </div>
    </header>
  );
}
