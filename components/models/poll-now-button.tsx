"use client";

import { useActionState } from "react";
import { pollNowAction, type PollActionState } from "@/app/actions";

export function PollNowButton() {
  const [state, action, pending] = useActionState<PollActionState | null>(pollNowAction, null);
  return (
    <form action={action} className="flex flex-col items-end gap-1">
      <button
        type="submit"
        disabled={pending}
        className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60"
      >
        {pending ? "Polling…" : "Poll now"}
      </button>
      {state && (
        <p role="status" className={`max-w-md text-right text-xs whitespace-pre-line ${state.ok ? "text-emerald-700" : "text-red-700"}`}>
          {state.message}
        </p>
      )}
    </form>
  );
}
