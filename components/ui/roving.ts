"use client";

import { useState, type FocusEvent, type KeyboardEvent } from "react";

/**
 * A row of controls as one tab stop (a roving tabindex): Tab reaches one of them (the last one
 * focused, else `preferred`), the arrow keys and Home and End move between them, and each keeps
 * its own Enter or Space. Each control gets `props(id)`; `attribute` (a `data-` attribute) names
 * it, and `scope` is the selector of the element that holds the row.
 */
export function useRovingTabIndex(ids: readonly string[], preferred: string, attribute: `data-${string}`, scope: string) {
  const [current, setCurrent] = useState(preferred);
  const stop = ids.includes(current) ? current : ids.includes(preferred) ? preferred : ids[0];
  const idOf = (element: HTMLElement) => element.getAttribute(attribute) ?? "";

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const index = ids.indexOf(idOf(event.currentTarget));
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: ids.length - 1 }[event.key];
    if (next === undefined || index < 0) return;
    event.preventDefault();
    const id = ids[(next + ids.length) % ids.length];
    setCurrent(id);
    event.currentTarget.closest(scope)?.querySelector<HTMLElement>(`[${attribute}="${CSS.escape(id)}"]`)?.focus();
  };

  return {
    props: (id: string) => ({
      [attribute]: id,
      tabIndex: id === stop ? 0 : -1,
      "aria-keyshortcuts": "ArrowLeft ArrowRight Home End",
      onKeyDown,
      onFocus: (event: FocusEvent<HTMLElement>) => setCurrent(idOf(event.currentTarget) || preferred),
    }),
  };
}
