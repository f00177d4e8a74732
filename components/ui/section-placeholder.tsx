/**
 * What stands in for a section whose code loads when it comes into view: its heading (so the page
 * reads whole and the in-page links land), a short status line, and about its height (so the
 * page does not jump when the section arrives).
 */
export function SectionPlaceholder({ title, loading, testId, minHeight, boxed = false }: {
  title: string;
  loading: string;
  testId: string;
  /** A tailwind min-height class, about the loaded section's height. */
  minHeight: string;
  /** Drawn as a card, like sections that are cards once loaded. */
  boxed?: boolean;
}) {
  const box = boxed ? "rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5" : "";
  return (
    <div data-testid={testId} className={`${minHeight} space-y-2 ${box}`}>
      <h2 className="text-lg font-semibold tracking-tight">{title}</h2>
      <p role="status" className="text-sm text-slate-600">{loading}</p>
    </div>
  );
}
