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
 * Scrolls to the linked section and keeps it there while the sections above it load and change
 * height (the budget and history sections load as they come near), until the reader or anything
 * else scrolls, a key or pointer is pressed, or 10 s pass. Returns what stops it.
 */
function keepInView(index: number): () => void {
  const target = document.getElementById(PAGE_SECTIONS[index].id);
  if (!target) return () => undefined;
  let placedAt = 0;
  const place = () => {
    target.scrollIntoView();
    placedAt = window.scrollY;
  };
  const resized = new ResizeObserver(() => (Math.abs(window.scrollY - placedAt) > 1 ? stop() : place()));
  const inputs = ["wheel", "touchstart", "keydown", "pointerdown"] as const;
  const timer = window.setTimeout(() => stop(), 10_000);
  function stop() {
    resized.disconnect();
    window.clearTimeout(timer);
    for (const name of inputs) window.removeEventListener(name, stop);
  }
  place();
  for (const s of PAGE_SECTIONS.slice(0, index)) {
    const above = document.getElementById(s.id);
    if (above) resized.observe(above);
  }
  for (const name of inputs) window.addEventListener(name, stop, { passive: true });
  return stop;
}

/**
 * The in-page navigation, sticky at the top while the page scrolls. It marks the section being
 * read, and scrolls to the linked section once the page is interactive (the browser's own jump
 * happens before hydration, when the sections above may still change height).
 */
export function SectionNav() {
  const [current, setCurrent] = useState<PageSectionId | null>(null);

  useEffect(() => {
    const linked = PAGE_SECTIONS.findIndex((s) => `#${s.id}` === window.location.hash);
    const stopKeeping = linked >= 0 ? keepInView(linked) : () => undefined;

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
    return () => {
      observer.disconnect();
      stopKeeping();
    };
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
