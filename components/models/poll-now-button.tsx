"use client";

import { useActionState } from "react";
import { pollNowAction, type PollActionState } from "@/app/actions";
import { SubmitButton } from "@/components/ui/submit-button";

export function PollNowButton() {
  const [state, action, pending] = useActionState<PollActionState | null>(pollNowAction, null);
  return (
    <form action={action} className="flex flex-col items-end gap-1">
      <SubmitButton pending={pending} busy="Polling…">Poll now</SubmitButton>
      {state && (
        <p role="status" className={`max-w-md text-right text-xs whitespace-pre-line ${state.ok ? "text-emerald-700" : "text-red-700"}`}>
          {state.message}
        </p>
      )}
    </form>
  );
}
