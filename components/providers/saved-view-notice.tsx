import { formatUtc } from "@/lib/format";
import { savedByText } from "@/lib/saved-view-author";
import type { SavedViewEntry } from "@/lib/saved-views";

/** Says which saved view the page was opened as (a /v/{slug} link), who saved it and when. */
export function SavedViewNotice({ view }: { view: SavedViewEntry }) {
  const updated = view.updatedAt.slice(0, 16) !== view.createdAt.slice(0, 16);
  return (
    <p role="note" aria-label="Saved view" className="rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm break-words text-indigo-950">
      Saved view <strong>“{view.name}”</strong>, saved by {savedByText(view.createdBy)} on {formatUtc(view.createdAt)}
      {updated && <>, last updated {formatUtc(view.updatedAt)}</>}.
    </p>
  );
}
