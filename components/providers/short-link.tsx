"use client";

import { useSyncExternalStore } from "react";
import { CopyButton } from "../ui/copy-button";

const noSubscription = () => () => {};

/**
 * The site's origin as the browser sees it. The server render says nothing (it may be rendered
 * behind a proxy or for a shared render, where the Host it sees is not the one the reader typed),
 * and the browser fills it in after hydration.
 */
export function useBrowserOrigin(): string | null {
  return useSyncExternalStore(noSubscription, () => window.location.origin, () => null);
}

/** A saved view's absolute short link, in a read-only field that selects itself on focus, and a copy button. */
export function ShortLink({ slug, name }: { slug: string; name: string }) {
  const origin = useBrowserOrigin();
  const url = `${origin ?? ""}/v/${slug}`;
  return (
    <span className="flex w-full max-w-md min-w-0 items-center gap-2">
      <input
        readOnly
        value={url}
        aria-label={`Short link of ${name}`}
        onFocus={(e) => e.currentTarget.select()}
        className="w-full min-w-0 flex-1 rounded border border-slate-200 bg-slate-50 px-1.5 py-0.5 font-mono text-xs text-slate-700"
      />
      <CopyButton text={url} label="Copy short link" className="px-2 py-0.5 text-xs" />
    </span>
  );
}
