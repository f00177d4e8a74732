import { formatUtc } from "@/lib/format";
import type { SpendOverview } from "@/lib/spend/queries";

/** Under the burn rate: the window it was really measured over, or what it still waits for. */
export function burnDetail({ burn, burnPending }: Pick<SpendOverview, "burn" | "burnPending">): string {
  if (burn) {
    return `over the ${span(burn.spanMinutes)} from ${formatUtc(burn.from)} to ${formatUtc(burn.to)} (the last ${burn.windowHours} h at most)`;
  }
  if (!burnPending) return "no snapshot yet";
  const { snapshots, spanMinutes, minimumMinutes } = burnPending;
  const sofar = snapshots < 2 ? `${snapshots} snapshot${snapshots === 1 ? "" : "s"} so far` : `${span(spanMinutes)} so far`;
  return `no rate until the snapshots span ${minimumMinutes} min (${sofar})`;
}

function span(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}
