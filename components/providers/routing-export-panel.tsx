"use client";

import type { RoutingExport } from "@/lib/routing/export";
import { ROUTING_SORTS, type RoutingSort } from "@/lib/view-state/comparison";
import { CopyButton } from "../ui/copy-button";

interface Props {
  routing: RoutingExport;
  sort: RoutingSort;
  onSortChange(sort: RoutingSort): void;
  apiPath: string;
}

/** The included set as the `provider` object of an OpenRouter chat request, ready to paste. */
export function RoutingExportPanel({ routing, sort, onSortChange, apiPath }: Props) {
  const json = JSON.stringify(routing, null, 2);
  const empty = routing.provider.only.length === 0;
  return (
    <section aria-labelledby="routing-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="routing-heading" className="text-sm font-semibold text-slate-900">Routing preferences</h2>
        <div className="flex items-center gap-2 text-sm">
          <label className="flex items-center gap-1 text-slate-600">
            sort
            <select
              value={sort}
              onChange={(e) => onSortChange(e.target.value as RoutingSort)}
              className="rounded-md border border-slate-300 bg-white px-1.5 py-0.5"
            >
              {ROUTING_SORTS.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          {!empty && <CopyButton text={json} label="Copy JSON" />}
        </div>
      </div>
      <p className="mt-1 text-xs text-slate-500">
        Paste into the body of each chat request. Fallbacks are off, so a request fails rather than reach a provider
        you excluded.
      </p>
      {empty ? (
        // No copy and no JSON: `"only": []` reads to OpenRouter as no restriction at all, so a pasted
        // export would send the pipeline to every provider, the ones the rules exclude included.
        <div role="alert" aria-label="Nothing to export" className="mt-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          <p className="font-medium">No provider is included, so there is nothing to export.</p>
          <p className="mt-1">
            An empty <code>only</code> list does not mean “no provider” to OpenRouter: it means no restriction at all, and
            every request would go to any provider, the quantized ones you excluded included. Loosen a rule to include at
            least one provider.
          </p>
        </div>
      ) : (
        <pre aria-label="Routing preferences JSON" className="mt-2 overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">
          {json}
        </pre>
      )}
      <p className="mt-2 text-xs text-slate-500">
        For scripts: <code className="break-all">GET {apiPath}</code>
        {empty && " (answers 422 while nothing is included)"}
      </p>
    </section>
  );
}
