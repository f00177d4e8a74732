// Display formatting shared by server and client components. Times are shown in UTC so the
// server render and the browser agree and teammates in other zones read the same thing.

export function formatUtc(iso: string | null | undefined): string {
  if (!iso) return "never";
  const d = new Date(iso);
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "2026-12-02 11:32:05 UTC": for readings whose seconds matter (what OpenRouter said, and when). */
export function formatUtcSeconds(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

export function formatAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (seconds < 60) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : `${value.toFixed(1)}%`;
}

export function formatUsdPerM(value: string | null | undefined): string {
  return value === null || value === undefined ? "—" : `$${value}`;
}

export function formatInt(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : value.toLocaleString("en-US");
}
