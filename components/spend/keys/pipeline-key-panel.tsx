"use client";

import Decimal from "decimal.js";
import { useActionState, useState } from "react";
import { enforceBudgetAction, setKeyDisabledAction, type KeyActionState } from "@/app/spend/keys-actions";
import { perMonthUsd, resetWindow } from "@/lib/keys/limit-reset";
import { usd } from "./money";

export interface PipelineKeyView {
  hash: string;
  name: string;
  usage: string;
  limit: string | null;
  limitRemaining: string | null;
  /** OpenRouter's limit_reset: "daily", "weekly", "monthly", or null when the limit never resets. */
  limitReset: string | null;
  disabled: boolean;
}

/**
 * The pipeline key's limit against the budget, with the three controls that matter when money
 * runs: enforce the budget as the key's limit (after a confirmation that shows old and new), and
 * the emergency stop and its undo.
 */
export function PipelineKeyPanel({ pipelineKey, budgetUsd, canChange }: { pipelineKey: PipelineKeyView; budgetUsd: string; canChange: boolean }) {
  const limitMatches = pipelineKey.limit !== null && new Decimal(pipelineKey.limit).eq(budgetUsd) && pipelineKey.limitReset === null;
  return (
    <div aria-label="Pipeline key" role="group" className="space-y-3 rounded-md border border-indigo-200 bg-indigo-50/40 p-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-sm">
          Pipeline key: <strong>{pipelineKey.name}</strong> <span className="font-mono text-xs text-slate-500">{pipelineKey.hash.slice(0, 8)}</span>
        </p>
        {pipelineKey.disabled ? (
          <span className="rounded bg-red-100 px-2 py-0.5 text-sm font-semibold text-red-800">Stopped (disabled)</span>
        ) : (
          <span className="rounded bg-emerald-100 px-2 py-0.5 text-sm font-medium text-emerald-800">Enabled</span>
        )}
      </div>
      <dl aria-label="Pipeline key limit" className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-5">
        <Figure label="Limit at OpenRouter" value={usd(pipelineKey.limit, "no limit")} />
        <Figure label="Limit resets" value={pipelineKey.limitReset ?? "never"} />
        <Figure label="Left under the limit" value={usd(pipelineKey.limitRemaining)} />
        <Figure label="Spent by the key" value={usd(pipelineKey.usage)} />
        <Figure label="Budget" value={usd(budgetUsd)} />
      </dl>
      <p className="text-xs text-slate-600">
        “Spent by the key” is everything this key has spent since it was created, as OpenRouter counts it (and what its limit is checked
        against); “Spent since start” above is what Routeboard’s own OpenRouter key spent since the budget’s start. They differ when the
        key was used before the start, or is not the key Routeboard polls with.
      </p>
      {!limitMatches && (
        <p role="note" className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          {pipelineKey.limit === null
            ? "The key has no limit: nothing stops the pipeline at the budget."
            : new Decimal(pipelineKey.limit).eq(budgetUsd)
              ? `The key's limit (${usd(pipelineKey.limit)}) resets ${pipelineKey.limitReset}: the key can spend it again every ${resetWindow(pipelineKey.limitReset ?? "") ?? "window"}.`
              : `The key's limit (${usd(pipelineKey.limit)}${pipelineKey.limitReset ? `, resetting ${pipelineKey.limitReset}` : ""}) differs from the budget (${usd(budgetUsd)}).`}{" "}
          {canChange ? "Enforce the budget to make OpenRouter stop the key there." : ""}
        </p>
      )}
      {canChange && (
        <div className="flex flex-wrap items-start gap-3">
          <EnforceBudget pipelineKey={pipelineKey} budgetUsd={budgetUsd} />
          <StopOrStart pipelineKey={pipelineKey} />
        </div>
      )}
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

function EnforceBudget({ pipelineKey, budgetUsd }: { pipelineKey: PipelineKeyView; budgetUsd: string }) {
  const [state, action, pending] = useActionState<KeyActionState | null, FormData>(enforceBudgetAction, null);
  const [confirming, setConfirming] = useState(false);
  const spentAlready = new Decimal(pipelineKey.usage);
  return (
    <div className="space-y-2">
      {!confirming ? (
        <button
          type="button"
          onClick={() => setConfirming(true)}
          className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500"
        >
          Enforce the budget…
        </button>
      ) : (
        <form
          action={(form) => {
            setConfirming(false);
            action(form);
          }}
          role="alertdialog"
          aria-label="Confirm the new limit"
          className="space-y-2 rounded-md border border-slate-300 bg-white p-3 text-sm shadow-sm"
        >
          <input type="hidden" name="hash" value={pipelineKey.hash} />
          <p>
            Change the limit of <strong>{pipelineKey.name}</strong> at OpenRouter from <strong>{usd(pipelineKey.limit, "no limit")}</strong>
            {pipelineKey.limitReset && <strong>, resetting {pipelineKey.limitReset}</strong>} to <strong>{usd(budgetUsd)}</strong>
            {pipelineKey.limitReset && <strong> with no reset</strong>}?
          </p>
          {pipelineKey.limitReset && <ResetNote reset={pipelineKey.limitReset} budgetUsd={budgetUsd} />}
          {spentAlready.gt(0) && (
            <p className="text-slate-600">
              The key has already spent {usd(pipelineKey.usage)}, which counts against the limit: it can spend{" "}
              {usd(Decimal.max(0, new Decimal(budgetUsd).minus(spentAlready)).toFixed(2))} more.
            </p>
          )}
          <div className="flex gap-2">
            <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-500">
              Set the limit to {usd(budgetUsd)}
            </button>
            <button type="button" onClick={() => setConfirming(false)} className="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-50">
              Cancel
            </button>
          </div>
        </form>
      )}
      {pending && <p role="status" className="text-sm text-slate-600">Setting the limit at OpenRouter…</p>}
      {!pending && state && (
        <p role={state.ok ? "status" : "alert"} className={`max-w-xl text-sm ${state.ok ? "text-emerald-700" : "text-red-700"}`}>{state.message}</p>
      )}
    </div>
  );
}

/** What the reset in force would have meant with the budget as the limit, and that enforcing removes it. */
function ResetNote({ reset, budgetUsd }: { reset: string; budgetUsd: string }) {
  const per = resetWindow(reset);
  const perMonth = perMonthUsd(budgetUsd, reset);
  return (
    <p className="rounded border border-amber-200 bg-amber-50 px-2 py-1.5 text-amber-950">
      The key’s limit resets {reset}
      {per && perMonth && (
        <>
          : with the budget as that limit, the key could spend {usd(budgetUsd)} again every {per}, about {usd(perMonth)} a month (30 days)
        </>
      )}
      . Enforcing removes the reset: {usd(budgetUsd)} in all, counted against everything the key has spent.
    </p>
  );
}

function StopOrStart({ pipelineKey }: { pipelineKey: PipelineKeyView }) {
  const [state, action, pending] = useActionState<KeyActionState | null, FormData>(setKeyDisabledAction, null);
  const stopping = !pipelineKey.disabled;
  return (
    <form action={action} className="space-y-2">
      <input type="hidden" name="hash" value={pipelineKey.hash} />
      <input type="hidden" name="disabled" value={stopping ? "true" : "false"} />
      <button
        type="submit"
        disabled={pending}
        className={
          stopping
            ? "rounded-md bg-red-600 px-3 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-red-500 disabled:opacity-60"
            : "rounded-md border border-emerald-600 bg-white px-3 py-1.5 text-sm font-medium text-emerald-800 hover:bg-emerald-50 disabled:opacity-60"
        }
      >
        {pending ? (stopping ? "Stopping…" : "Re-enabling…") : stopping ? "Emergency stop" : "Re-enable the key"}
      </button>
      {!pending && state && (
        <p role={state.ok ? "status" : "alert"} className={`max-w-md text-sm ${state.ok ? "text-emerald-700" : "text-red-700"}`}>{state.message}</p>
      )}
    </form>
  );
}
