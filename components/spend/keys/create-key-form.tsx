"use client";

import { useActionState } from "react";
import { createPipelineKeyAction, type KeyActionState } from "@/app/spend/keys-actions";
import { CopyButton } from "@/components/ui/copy-button";
import { SubmitButton } from "@/components/ui/submit-button";
import { usd } from "./money";
import { Input } from "@/components/ui/input";

/**
 * Creates a key dedicated to the pipeline, with the budget as its limit. Its secret is shown here
 * once (it lives only in this component's state) and is not stored or logged anywhere.
 */
export function CreateKeyForm({ budgetUsd }: { budgetUsd: string }) {
  const [state, action, pending] = useActionState<KeyActionState | null, FormData>(createPipelineKeyAction, null);
  return (
    <div className="space-y-2">
      <form action={action} aria-label="Create a pipeline key" className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="new-key-name" className="block text-sm font-medium text-slate-700">New key’s name</label>
          <Input id="new-key-name" name="name" defaultValue="Routeboard pipeline" required maxLength={60} className="mt-1 w-56 text-sm" />
        </div>
        <SubmitButton pending={pending} busy="Creating…">Create a key limited to {usd(budgetUsd)}</SubmitButton>
      </form>
      {state && !state.ok && <p role="alert" className="text-sm text-red-700">{state.message}</p>}
      {state?.ok && state.secret && (
        <div role="region" aria-label="New key secret" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p className="font-medium">{state.message}</p>
          <p>
            <strong>Copy the key now: it is shown only this once.</strong> Routeboard does not keep it, and OpenRouter will not show it again. Put it in the
            pipeline’s secret store, never in a repository.
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <code aria-label="Key secret" className="rounded border border-amber-300 bg-white px-2 py-1 font-mono text-xs break-all">{state.secret}</code>
            <CopyButton text={state.secret} label="Copy key" />
          </div>
        </div>
      )}
    </div>
  );
}
