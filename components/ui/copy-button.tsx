"use client";

import { useState } from "react";

/** Copies text to the clipboard and says so; falls back to selecting it when the clipboard is refused. */
export function CopyButton({ text, label, className = "" }: { text: string; label: string; className?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setState("copied");
          } catch {
            setState("failed");
          }
          setTimeout(() => setState("idle"), 2500);
        }}
        className={`rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm text-slate-700 shadow-sm hover:bg-slate-50 ${className}`}
      >
        {label}
      </button>
      <span role="status" className="text-xs text-slate-500">
        {state === "copied" ? "Copied" : state === "failed" ? "Copy refused by the browser: select the text instead" : ""}
      </span>
    </span>
  );
}
