"use client";

import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";

const LINK =
  "sr-only rounded-md bg-indigo-700 px-3 py-2 text-sm font-medium text-white shadow focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50";

interface Section {
  id: string;
  label: string;
}

/**
 * The first stops for a keyboard: past the header and its links, straight to the page, and on a
 * page made of sections (the model page) straight to each of them. The sections are the page's own
 * `[data-page-section]` anchors (components/models/page-sections.tsx), read once the page is
 * interactive and again on each client navigation, so a page without them offers none.
 */
export function SkipLinks() {
  const pathname = usePathname();
  const [sections, setSections] = useState<Section[]>([]);

  useEffect(() => {
    const found = [...document.querySelectorAll<HTMLElement>("[data-page-section]")].map((e) => ({ id: e.id, label: e.dataset.pageSection || e.id }));
    setSections(found);
  }, [pathname]);

  return (
    <>
      <a href="#main" className={LINK}>
        Skip to content
      </a>
      {sections.map((s) => (
        <a key={s.id} href={`#${s.id}`} className={LINK}>
          Skip to {s.label}
        </a>
      ))}
    </>
  );
}
