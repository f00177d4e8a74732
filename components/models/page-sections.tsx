"use client";

import { useEffect, useState, type ReactNode } from "react";

// The model page's sections, in page order. The in-page navigation lists them and each is an
// anchor a link can carry (/models/a/b?…#history). Adding a section is one entry here, plus
// <PageSection id="…"> around its content.
export const PAGE_SECTIONS = [
  { id: "providers", label: "Providers" },
  { id: "routing", label: "Routing" },
  { id: "budget", label: "Budget" },
  { id: "history", label: "History" },
  { id: "fidelity", label: "Fidelity" },
] as const;

export type PageSectionId = (typeof PAGE_SECTIONS)[number]["id"];

/**
 * One of the page's sections: an anchor that stays clear of the sticky navigation when scrolled
 * to. A plain box, not a landmark: the panels inside are the labelled regions. It takes the focus
 * when a skip link or the navigation jumps to it (tabIndex -1), so the next Tab goes on from
 * there; `data-page-section` names it for the skip links (components/layout/skip-links.tsx).
 */
export function PageSection({ id, children }: { id: PageSectionId; children: ReactNode }) {
  const label = PAGE_SECTIONS.find((s) => s.id === id)?.label ?? id;
  return (
    <div id={id} data-page-section={label} tabIndex={-1} className="scroll-mt-14 space-y-4 outline-none">
      {children}
    </div>
  );
}

/**
 * The in-page navigation, sticky at the top while the page scrolls. It marks the section being
 * read, and scrolls to the linked section once the page is interactive (the browser's own jump
 * happens before hydration, when the sections above may still change height).
 */
export function SectionNav() {
  const [current, setCurrent] = useState<PageSectionId | null>(null);

  useEffect(() => {
    const linked = PAGE_SECTIONS.find((s) => `#${s.id}` === window.location.hash);
    if (linked) document.getElementById(linked.id)?.scrollIntoView();

    const sections = PAGE_SECTIONS.map((s) => document.getElementById(s.id)).filter((e): e is HTMLElement => e !== null);
    const visible = new Set<string>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          if (e.isIntersecting) visible.add(e.target.id);
          else visible.delete(e.target.id);
        }
        const first = PAGE_SECTIONS.find((s) => visible.has(s.id));
        setCurrent(first?.id ?? null);
      },
      // A section counts as being read while it crosses the band just under the navigation.
      { rootMargin: "-56px 0px -60% 0px" },
    );
    for (const s of sections) observer.observe(s);
    return () => observer.disconnect();
  }, []);

  return (
    <nav
      aria-label="On this page"
      className="sticky top-0 z-30 -mx-4 border-b border-slate-200 bg-slate-50/95 px-4 py-2 backdrop-blur sm:-mx-6 sm:px-6"
    >
      {/* Every link on screen at 390 px (spread out, with less padding), wrapping below that: never cut. */}
      <ul className="flex flex-wrap justify-between gap-y-1 text-sm sm:justify-start sm:gap-1">
        {PAGE_SECTIONS.map((s) => (
          <li key={s.id}>
            <a
              href={`#${s.id}`}
              aria-current={current === s.id ? "location" : undefined}
              className="block rounded-md px-1.5 py-1.5 whitespace-nowrap sm:px-3 text-slate-600 hover:bg-white hover:text-slate-900 aria-[current=location]:bg-white aria-[current=location]:font-medium aria-[current=location]:text-indigo-700 aria-[current=location]:shadow-sm"
            >
              {s.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
