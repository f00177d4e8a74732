"use client";

import { useActionState } from "react";
import { saveBudgetAction, type BudgetActionState } from "@/app/spend/actions";
import { SubmitButton } from "@/components/ui/submit-button";

/** Budget amount and start time (UTC), saved by a server action. */
export function BudgetForm({ amountUsd, startAt }: { amountUsd: string; startAt: string }) {
  const [state, action, pending] = useActionState<BudgetActionState | null, FormData>(saveBudgetAction, null);
  return (
    <form action={action} aria-label="Budget" className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor="budget-amount" className="block text-sm font-medium text-slate-700">Budget (USD)</label>
        <input
          id="budget-amount"
          name="amountUsd"
          defaultValue={amountUsd}
          inputMode="decimal"
          required
          className="mt-1 w-32 rounded-md border border-slate-300 px-2 py-1 text-right font-mono"
        />
      </div>
      <div>
        <label htmlFor="budget-start" className="block text-sm font-medium text-slate-700">Start (UTC)</label>
        <input
          id="budget-start"
          name="startAt"
          type="datetime-local"
          step={1}
          defaultValue={startAt.slice(0, 19)}
          required
          className="mt-1 rounded-md border border-slate-300 px-2 py-1 font-mono text-sm"
        />
      </div>
      <SubmitButton pending={pending} busy="Saving…">Save budget</SubmitButton>
      {state && (
        <p role="status" className={`basis-full text-sm ${state.ok ? "text-emerald-700" : "text-red-700"}`}>{state.message}</p>
      )}
    </form>
  );
}
