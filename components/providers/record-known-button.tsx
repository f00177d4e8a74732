import type { ProbeFact } from "@/lib/rules/evaluate";

// Pieces the provider table and the phone's cards share.

/**
 * Opens the "Known quantization" dialog for a row. Its accessible name starts with the words it
 * shows ("record known …", "edit team note …"), so a voice user saying what they see reaches it.
 * `data-record-known` lets the page put the focus back on it when the dialog closes.
 */
export function RecordKnownButton({ row, onClick }: { row: { tag: string; provider: string; known: unknown }; onClick(): void }) {
  return (
    <button type="button" data-record-known={row.tag} onClick={onClick} className="text-left text-[11px] text-indigo-700 hover:underline">
      {row.known ? "edit team note" : "record known"}
      <span className="sr-only">{row.known ? ` for ${row.provider}` : ` quantization for ${row.provider}`}</span>
    </button>
  );
}

/** The hover text of a row's probe badge: which probe, when, and why. */
export function probeBadgeTitle(probe: ProbeFact): string {
  return `${probe.demo ? "Demo probe (demo data)" : "Probe"} of ${probe.finishedAt.slice(0, 10)}: ${probe.reason}`;
}
