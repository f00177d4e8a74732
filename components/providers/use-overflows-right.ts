"use client";

import { useCallback, useEffect, useRef, useState, type RefObject } from "react";

/**
 * Whether a horizontally scrolling box has content hidden past its right edge, so the page can
 * say the table scrolls (a scrollbar alone is easy to miss, and absent on some systems).
 */
export function useOverflowsRight<E extends HTMLElement>(): [RefObject<E | null>, boolean] {
  const ref = useRef<E | null>(null);
  const [overflows, setOverflows] = useState(false);
  const measure = useCallback(() => {
    const el = ref.current;
    // One pixel of slack: sub-pixel widths round differently in scrollWidth and clientWidth.
    setOverflows(el !== null && el.scrollLeft + el.clientWidth < el.scrollWidth - 1);
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    measure();
    const resize = new ResizeObserver(measure);
    resize.observe(el);
    if (el.firstElementChild) resize.observe(el.firstElementChild);
    el.addEventListener("scroll", measure, { passive: true });
    return () => {
      resize.disconnect();
      el.removeEventListener("scroll", measure);
    };
  }, [measure]);

  return [ref, overflows];
}
