"use client";

import { useActionState, useState } from "react";
import { saveBudgetAction, type BudgetActionState } from "@/app/spend/actions";
import { SubmitButton } from "@/components/ui/submit-button";
import { BUDGET_BOUNDS } from "@/lib/budget/amount";
import { Input } from "@/components/ui/input";

/** Budget amount and start time (UTC), saved by a server action. */
export function BudgetForm({ amountUsd, startAt }: { amountUsd: string; startAt: string }) {
  const [state, action, pending] = useActionState<BudgetActionState | null, FormData>(saveBudgetAction, null);
  // Controlled, so what was typed stays after a refusal (React resets uncontrolled fields once a
  // form action has run, which would throw the typing away with the message about it).
  const [amount, setAmount] = useState(amountUsd);
  const [start, setStart] = useState(startAt.slice(0, 19));
  const refused = state !== null && !state.ok;
  return (
    <form action={action} aria-label="Budget" className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor="budget-amount" className="block text-sm font-medium text-slate-700">Budget (USD)</label>
        <Input
          id="budget-amount"
          name="amountUsd"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          inputMode="decimal"
          required
          aria-invalid={refused && state.message.startsWith("Budget")}
          aria-describedby="budget-bounds"
          className="mt-1 w-36 text-right font-mono"
        />
      </div>
      <div>
        <label htmlFor="budget-start" className="block text-sm font-medium text-slate-700">Start (UTC)</label>
        <Input
          id="budget-start"
          name="startAt"
          type="datetime-local"
          step={1}
          value={start}
          onChange={(e) => setStart(e.target.value)}
          required
          aria-invalid={refused && state.message.startsWith("Start")}
          className="mt-1 font-mono text-sm"
        />
      </div>
      <SubmitButton pending={pending} busy="Saving…">Save budget</SubmitButton>
      <p id="budget-bounds" className="basis-full text-xs text-slate-500">An amount {BUDGET_BOUNDS}, in dollars and cents.</p>
      {state && (
        <p role="status" className={`basis-full text-sm ${state.ok ? "text-emerald-700" : "text-red-700"}`}>{state.message}</p>
      )}
    </form>
  );
}
