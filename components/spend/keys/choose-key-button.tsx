"use client";

import { useActionState } from "react";
import { choosePipelineKeyAction, type KeyActionState } from "@/app/spend/keys-actions";

/** Makes this key the pipeline key (stored by its hash only). */
export function ChooseKeyButton({ hash, name }: { hash: string; name: string }) {
  const [state, action, pending] = useActionState<KeyActionState | null, FormData>(choosePipelineKeyAction, null);
  return (
    <form action={action} className="inline">
      <input type="hidden" name="hash" value={hash} />
      <button
        type="submit"
        disabled={pending}
        // The name starts with the words shown (a voice user says what they see), then the key's.
        aria-label={`${pending ? "Choosing…" : "Use for pipeline"}: “${name}”`}
        className="rounded-md border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-50 disabled:opacity-60"
      >
        {pending ? "Choosing…" : "Use for pipeline"}
      </button>
      {state && !state.ok && <span role="alert" className="ml-2 text-xs text-red-700">{state.message}</span>}
    </form>
  );
}
