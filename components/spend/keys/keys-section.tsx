import { formatUtc, formatUtcSeconds } from "@/lib/format";
import type { KeysSectionData } from "@/lib/queries/spend-page";
import { CreateKeyForm } from "./create-key-form";
import { KeyChangesTable } from "./key-changes-table";
import { KeysTable } from "./keys-table";
import { usd } from "./money";
import { PipelineKeyPanel } from "./pipeline-key-panel";

/**
 * The spend page's "Keys" section: present only with OPENROUTER_MANAGEMENT_KEY (else one line says
 * what it would unlock). Shows the keys as the page read them from OpenRouter
 * (lib/queries/spend-page.ts), and says when. The controls never act on that reading: each action
 * reads the key again first (lib/keys/operations.ts). When the read failed the section says so and
 * shows the last figures stored, which the failure leaves untouched.
 */
export function KeysSection({ data, budgetUsd }: { data: KeysSectionData | null; budgetUsd: string }) {
  if (!data) {
    return (
      <p role="note" aria-label="Key controls are off" className="text-sm text-slate-600">
        With an OpenRouter management key (<code className="font-mono">OPENROUTER_MANAGEMENT_KEY</code>), this page could enforce the budget as the
        pipeline key’s limit, stop the key in one click, and show what OpenRouter actually charged per provider.
      </p>
    );
  }
  const { overview, refusal } = data;
  const canChange = refusal === null && overview.keys !== null;
  const pipelineView = overview.pipelineKey
    ? {
        hash: overview.pipelineKey.hash,
        name: overview.pipelineKey.name,
        usage: overview.pipelineKey.usage,
        limit: overview.pipelineKey.limit,
        limitRemaining: overview.pipelineKey.limit_remaining,
        limitReset: overview.pipelineKey.limit_reset ?? null,
        disabled: overview.pipelineKey.disabled,
      }
    : null;

  return (
    <section aria-labelledby="keys-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <div>
        <h2 id="keys-heading" className="text-lg font-semibold">Keys</h2>
        <p className="text-sm text-slate-600">
          OpenRouter enforces a key’s limit itself: a pipeline key limited to the budget stops spending when the money is gone.
          {overview.demo && <strong className="ml-1 text-amber-800">Demo data from the local replica.</strong>}
        </p>
        <p className="mt-1 text-xs text-slate-500">
          {overview.readError ? "Tried to read" : "Read"} OpenRouter’s key API at{" "}
          <time data-testid="keys-read-at" dateTime={overview.readAt}>{formatUtcSeconds(overview.readAt)}</time>. Every action reads the key again before it
          changes anything.
        </p>
      </div>

      {refusal && (
        <p role="note" aria-label="Key changes are off" className="rounded-md border border-slate-300 bg-slate-50 px-3 py-2 text-sm text-slate-800">
          Read-only. {refusal}
        </p>
      )}

      {overview.readError && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          <p className="font-medium">OpenRouter’s key API could not be read: {overview.readError}</p>
          <p className="mt-1">
            Nothing stored has changed. The controls come back when OpenRouter answers again.
            {overview.pipeline && overview.lastReading && (
              <>
                {" "}Last reading of the pipeline key “{overview.pipeline.name}” ({formatUtc(overview.lastReading.observedAt)}): limit{" "}
                {usd(overview.lastReading.limit, "none")}{overview.lastReading.limitReset ? ` (resets ${overview.lastReading.limitReset})` : ""}, {usd(overview.lastReading.limitRemaining)} left, spent {usd(overview.lastReading.usage)},{" "}
                {overview.lastReading.disabled ? "disabled" : "enabled"}.
              </>
            )}
          </p>
        </div>
      )}

      {pipelineView ? (
        <PipelineKeyPanel pipelineKey={pipelineView} budgetUsd={budgetUsd} canChange={canChange} />
      ) : overview.keys !== null ? (
        <p className="text-sm text-slate-700">
          {overview.pipeline
            ? `The pipeline key “${overview.pipeline.name}” is no longer on the account. Choose another, or create one.`
            : "No pipeline key yet: choose the key the pipeline uses below, or create a dedicated one with the budget as its limit."}
        </p>
      ) : null}

      {overview.keys !== null && (
        <>
          <KeysTable keys={overview.keys} pipelineHash={overview.pipeline?.hash ?? null} canChange={canChange} />
          {canChange && <CreateKeyForm budgetUsd={budgetUsd} />}
        </>
      )}

      <div className="space-y-2">
        <h3 className="text-sm font-semibold text-slate-700">Changes made from the dashboard</h3>
        <KeyChangesTable changes={overview.changes} />
      </div>
    </section>
  );
}
