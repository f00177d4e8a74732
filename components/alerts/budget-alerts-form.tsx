"use client";

import { useState } from "react";
import type { BudgetAlertSettings } from "@/lib/alerts/detect-budget";
import { apiFetch } from "../ui/api-fetch";
import { Input } from "@/components/ui/input";

// The global budget conditions (PUT /api/alerts/budget): spend steps, run-out, the pipeline key's
// limit_remaining. Shown on /spend beside the budget they are about.

export function BudgetAlertsForm({ initial }: { initial: BudgetAlertSettings }) {
  const [spendSteps, setSpendSteps] = useState(initial.spendSteps);
  const [runOut, setRunOut] = useState(initial.runOut);
  const [keyLimit, setKeyLimit] = useState(initial.keyLimitBelowUsd ?? "");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(
    initial.saved ? null : { ok: true, text: "Not saved yet: budget alerts start once these are saved." },
  );
  const [busy, setBusy] = useState(false);

  return (
    <form
      aria-labelledby="budget-alerts-heading"
      className="space-y-2 rounded-md border border-slate-200 p-3 text-sm"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        try {
          const saved = await apiFetch<BudgetAlertSettings>("/api/alerts/budget", {
            method: "PUT",
            body: JSON.stringify({ spendSteps, runOut, keyLimitBelowUsd: keyLimit.trim() === "" ? null : keyLimit.trim() }),
          });
          setKeyLimit(saved.keyLimitBelowUsd ?? "");
          setMessage({ ok: true, text: "Saved the budget alerts." });
        } catch (err) {
          setMessage({ ok: false, text: (err as Error).message });
        } finally {
          setBusy(false);
        }
      }}
    >
      <h3 id="budget-alerts-heading" className="font-medium text-slate-900">Budget alerts</h3>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={spendSteps} onChange={(e) => setSpendSteps(e.target.checked)} />
        Spend reached 50%, 80% and 100% of the budget (each once per budget)
      </label>
      <label className="flex items-center gap-2">
        <input type="checkbox" checked={runOut} onChange={(e) => setRunOut(e.target.checked)} />
        The budget runs out before the plan is covered (at the rate paid so far)
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor="key-limit-below">The pipeline key’s limit remaining falls below (USD)</label>
        <Input
          id="key-limit-below"
          inputMode="decimal"
          value={keyLimit}
          onChange={(e) => setKeyLimit(e.target.value)}
          placeholder="off"
          className="w-28"
        />
      </div>
      <button type="submit" disabled={busy} className="rounded-md bg-indigo-600 px-3 py-1 font-medium text-white disabled:opacity-60">
        Save budget alerts
      </button>
      {message && (
        <p role="status" className={message.ok ? "text-slate-700" : "text-red-700"}>
          {message.text}
        </p>
      )}
    </form>
  );
}
