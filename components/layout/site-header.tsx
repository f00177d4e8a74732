import Link from "next/link";

export function SiteHeader() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-screen-2xl items-center gap-6 px-4 py-3 sm:px-6">
        <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight text-slate-900">
          <span aria-hidden className="inline-block h-5 w-5 rounded bg-gradient-to-br from-indigo-500 to-emerald-500" />
          Routeboard
        </Link>
        <nav aria-label="Main" className="flex gap-4 text-sm text-slate-600">
          <Link href="/" className="hover:text-slate-900">
            Models
          </Link>
          <Link href="/spend" className="hover:text-slate-900">
            Spend
          </Link>
          <Link href="/alerts" className="hover:text-slate-900">
            Alerts
          </Link>
        </nav>
      </div>
    </header>
  );
}
