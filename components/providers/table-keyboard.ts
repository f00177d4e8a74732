"use client";

import { useEffect, useRef } from "react";
import { useRovingTabIndex } from "../ui/roving";

// Keyboard help for the provider table, kept apart from the table's markup.

/**
 * The sort headers as one tab stop (a roving tabindex): Tab reaches the sorted column's header,
 * the arrow keys (and Home, End) move between headers, Enter or Space sorts. Fifteen headers would
 * otherwise be fifteen tab stops between the rules and the rows.
 */
export function useRovingSortHeaders(columnIds: readonly string[], sortedColumn: string) {
  return useRovingTabIndex(columnIds, sortedColumn, "data-sort-header", "tr");
}

/**
 * Keeps the keyboard focus on a row's include/exclude button (marked `data-row-toggle={tag}`)
 * when the rows are drawn again after a toggle: if the focus fell to the page (the row moved or was
 * redrawn), it is put back on that row's button, whose label now says the opposite action.
 */
export function useKeepRowFocus<T extends HTMLElement>(rows: unknown) {
  const ref = useRef<T>(null);
  const lastToggle = useRef<string | null>(null);

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const onFocusIn = (event: globalThis.FocusEvent) => {
      const toggle = (event.target as HTMLElement).closest?.("[data-row-toggle]");
      lastToggle.current = toggle?.getAttribute("data-row-toggle") ?? null;
    };
    const onFocusOut = (event: globalThis.FocusEvent) => {
      // Moving on to another element forgets the row; losing the focus to nothing (a redrawn
      // button) does not.
      if (event.relatedTarget) lastToggle.current = null;
    };
    element.addEventListener("focusin", onFocusIn);
    element.addEventListener("focusout", onFocusOut);
    return () => {
      element.removeEventListener("focusin", onFocusIn);
      element.removeEventListener("focusout", onFocusOut);
    };
  }, []);

  useEffect(() => {
    const tag = lastToggle.current;
    const active = document.activeElement;
    if (!tag || !ref.current || (active && active !== document.body)) return;
    ref.current.querySelector<HTMLElement>(`[data-row-toggle="${CSS.escape(tag)}"]`)?.focus();
  }, [rows]);

  return ref;
}
