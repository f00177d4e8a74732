"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import type { Estimate, ResultView, RunView } from "@/lib/probe/runs";
import type { PrefillBehaviour } from "@/lib/probe/methods/on-policy";
import { describeSampler } from "@/lib/probe/settings";
import type { ProviderRow } from "@/lib/queries/providers";
import { formatUtc } from "@/lib/format";
import { authorEndpoint } from "@/lib/rules/author-endpoint";
import { apiFetch, modelApiPath } from "../ui/api-fetch";
import { refetchAfterWrite } from "../ui/refetch-after-write";
import { ProbeMethodNote } from "./method-note";
import { ProbeMargin } from "./probe-margin";
import { ProbeSchedule } from "./probe-schedule";
import { PromptSetPicker, type PromptChoice } from "./prompt-set-picker";
import { STACKED_BOX, STACKED_HEAD, STACKED_TABLE } from "../ui/stacked-table";
import { VerdictBadge } from "./verdict-badge";
import { fieldClass, Input } from "@/components/ui/input";

// The model page's "Fidelity" section: choose a reference and the endpoints to probe, see the
// estimate, run the probe on the server, watch it, cancel it, and read each endpoint's verdict.

type Props = FidelitySectionProps;

type RunWithResults = RunView & { results: ResultView[] };

export interface FidelitySectionProps {
  modelId: string;
  endpoints: Pick<ProviderRow, "tag" | "provider" | "status" | "supportedParameters">[];
}

const ACTIVE = new Set(["queued", "running"]);
/** How often an open page asks for the model's latest run. */
const LATEST_RUN_REFRESH_MS = 15_000;

/** The probe's default reference: the model author's own endpoint (lib/rules/author-endpoint.ts). */
function defaultReferenceOf(modelId: string, endpoints: Props["endpoints"]): string {
  return authorEndpoint(modelId, endpoints)?.tag ?? "";
}

export function FidelitySection({ modelId, endpoints }: Props) {
  const queryClient = useQueryClient();
  const [reference, setReference] = useState(() => defaultReferenceOf(modelId, endpoints));
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(endpoints.filter((e) => e.status === 0).map((e) => e.tag)));
  const [cap, setCap] = useState("2.00");
  const [prompts, setPrompts] = useState<PromptChoice>("builtin");
  const probed = useMemo(() => endpoints.map((e) => e.tag).filter((t) => chosen.has(t) && t !== reference), [endpoints, chosen, reference]);
  const basePath = `${modelApiPath(modelId)}/probes`;

  const estimate = useQuery({
    queryKey: ["probe-estimate", modelId, reference, probed, prompts],
    enabled: Boolean(reference) && probed.length > 0,
    queryFn: () => apiFetch<Estimate>(`${basePath}/estimate`, { method: "POST", body: JSON.stringify({ reference, endpoints: probed, prompts }) }),
    staleTime: 60_000,
  });

  const latest = useQuery({
    queryKey: ["probe-latest", modelId],
    queryFn: async () => (await apiFetch<{ runs: RunView[] }>(`${basePath}?limit=1`)).runs[0] ?? null,
    staleTime: 0,
    // A run started elsewhere (a teammate's page, the scheduled re-probe) shows here without a reload.
    refetchInterval: LATEST_RUN_REFRESH_MS,
  });
  const runId = latest.data?.id ?? null;
  const run = useQuery({
    queryKey: ["probe", runId],
    enabled: runId !== null,
    queryFn: () => apiFetch<RunWithResults>(`/api/probes/${runId}`),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data && !ACTIVE.has(query.state.data.status) ? false : 1000),
  });
  const current = run.data ?? null;
  const active = current ? ACTIVE.has(current.status) : false;

  // A run that ends while the page is open: ask at once whether newer verdicts exist, so the page
  // (LiveSnapshot) refreshes everything that depends on them (table, reasons, "N of M included",
  // routing export) now rather than at its next watch.
  const sawActive = useRef(false);
  useEffect(() => {
    if (active) sawActive.current = true;
    else if (sawActive.current && current) {
      sawActive.current = false;
      void refetchAfterWrite(queryClient, ["latest-poll", modelId]);
    }
  }, [active, current, modelId, queryClient]);

  const start = useMutation({
    mutationFn: () =>
      apiFetch<{ id: number; status: string; estimateUsd: string }>(basePath, {
        method: "POST",
        body: JSON.stringify({ reference, endpoints: probed, prompts, maxCostUsd: cap.trim() }),
      }),
    onSuccess: () => refetchAfterWrite(queryClient, ["probe-latest", modelId]),
  });
  const cancel = useMutation({
    mutationFn: (id: number) => apiFetch<RunView>(`/api/probes/${id}/cancel`, { method: "POST" }),
    onSuccess: () => refetchAfterWrite(queryClient, ["probe", runId]),
  });

  const toggle = (tag: string) =>
    setChosen((previous) => {
      const next = new Set(previous);
      if (next.has(tag)) next.delete(tag);
      else next.add(tag);
      return next;
    });

  return (
    <section aria-labelledby="fidelity-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-5">
      <div>
        <h2 id="fidelity-heading" className="text-lg font-semibold">Fidelity</h2>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Does each endpoint serve the same model as the reference, within a stated margin Δ? A quantization label cannot tell: this probe
          measures the divergence between each endpoint&apos;s next-token distributions and the reference&apos;s, in nats per token, with a 95%
          interval. Out of the box the providers table excludes endpoints whose latest verdict is <em>differs</em> (a rule you can turn off).
        </p>
      </div>

      <form
        aria-label="Probe settings"
        className="grid gap-4 md:grid-cols-[20rem_1fr]"
        onSubmit={(event) => {
          event.preventDefault();
          start.mutate();
        }}
      >
        <div className="space-y-3">
          <label className="block text-sm">
            <span className="font-medium text-slate-700">Reference endpoint</span>
            <select value={reference} onChange={(e) => setReference(e.target.value)} className={fieldClass({ className: "mt-1 block w-full bg-white" })}>
              {!reference && <option value="">Pick the reference…</option>}
              {endpoints.map((e) => (
                <option key={e.tag} value={e.tag}>
                  {e.tag} ({e.provider})
                </option>
              ))}
            </select>
          </label>
          {!defaultReferenceOf(modelId, endpoints) && <p className="text-xs text-amber-800">The model&apos;s author has no endpoint of its own: pick the reference.</p>}
          <PromptSetPicker value={prompts} onChange={setPrompts} />
          <label className="block text-sm">
            <span className="font-medium text-slate-700">Cost cap (USD)</span>
            <Input value={cap} onChange={(e) => setCap(e.target.value)} inputMode="decimal" className="mt-1 block w-32" />
          </label>
          <p className="text-sm text-slate-700" aria-live="polite">
            {probed.length === 0
              ? "Pick at least one endpoint to probe."
              : estimate.isPending
                ? "Estimating…"
                : estimate.error
                  ? `No estimate: ${estimate.error.message}`
                  : estimate.data
                    ? `Estimated cost: $${estimate.data.estimateUsd} (${estimate.data.requests} requests over ${estimate.data.promptCount} prompts, reference calls included)`
                    : null}
          </p>
          <button
            type="submit"
            // Until the latest run is known the page cannot tell whether one is running. And a run started
            // while that first ask is in flight would never show: the refetch after it joins the ask, which
            // may have been answered from before the run (tests/e2e/probe.spec.ts).
            disabled={latest.isPending || active || start.isPending || !reference || probed.length === 0}
            className="rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white disabled:cursor-not-allowed disabled:opacity-50"
          >
            Run probe
          </button>
          {start.error && <p role="alert" className="text-sm text-red-700">{start.error.message}</p>}
        </div>
        <fieldset className="text-sm">
          <legend className="font-medium text-slate-700">Endpoints to probe</legend>
          <ul className="mt-1 grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
            {endpoints.map((e) => (
              <li key={e.tag}>
                <label className="flex items-center gap-2">
                  <input type="checkbox" checked={chosen.has(e.tag) && e.tag !== reference} disabled={e.tag === reference} onChange={() => toggle(e.tag)} />
                  <span className="font-mono text-xs">{e.tag}</span>
                  {e.status !== 0 && <span className="text-xs text-slate-500">status {e.status}</span>}
                  {!e.supportedParameters.includes("logprobs") && <span className="text-xs text-slate-500">samples</span>}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      </form>

      {current && <RunPanel run={current} onCancel={() => cancel.mutate(current.id)} cancelling={cancel.isPending || (active && current.status === "running" && cancel.isSuccess)} />}
      {latest.data === null && <p className="text-sm text-slate-500">No probe of this model yet.</p>}
      <ProbeMargin
        basePath={basePath}
        latestUpperBounds={current?.status === "done" ? current.results.flatMap((r) => (r.divergence ? [r.divergence.klNats.high] : [])) : []}
      />
      <ProbeSchedule basePath={basePath} />
      <ProbeMethodNote />
    </section>
  );
}

function RunPanel({ run, onCancel, cancelling }: { run: RunWithResults; onCancel: () => void; cancelling: boolean }) {
  const active = ACTIVE.has(run.status);
  const results = new Map(run.results.map((r) => [r.tag, r]));
  const percent = run.progress.total ? Math.round((100 * run.progress.done) / run.progress.total) : 0;
  return (
    <div aria-label={`Probe ${run.id}`} role="region" className="space-y-3 rounded-md border border-slate-200 p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="text-sm">
          <p>
            <span className="font-medium">Probe {run.id}</span>
            {run.demo && <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">demo data</span>}
            {run.scheduledBy && <span className="ml-2 rounded bg-sky-50 px-1.5 py-0.5 text-xs text-sky-900" data-testid="probe-scheduled">scheduled: {run.scheduledBy}</span>}
            <span className="ml-2" data-testid="probe-status">{run.status}</span>
            {" · "}reference <span className="font-mono">{run.reference}</span>
            {" · "}<span data-testid="probe-prompts">{run.promptCount} prompts ({run.promptSet === "builtin" ? "built-in" : "uploaded"}, version {run.promptSetVersion})</span>
          </p>
          <p className="text-slate-600">
            <span data-testid="probe-progress">{run.progress.done} of {run.progress.total} requests</span>
            {run.progress.skipped > 0 && <span data-testid="probe-skipped"> ({run.progress.skipped} not needed: decided early)</span>}
            {" · "}
            <span data-testid="probe-cost">${run.costUsd} spent</span> of the ${run.maxCostUsd} cap (estimate ${run.estimateUsd})
            {run.finishedAt && <> · finished {formatUtc(run.finishedAt)}</>}
          </p>
        </div>
        {active && (
          <button type="button" onClick={onCancel} disabled={cancelling} className="rounded-md border border-slate-300 px-3 py-1 text-sm hover:bg-slate-50 disabled:opacity-50">
            {cancelling ? "Cancelling…" : "Cancel probe"}
          </button>
        )}
      </div>
      <div role="progressbar" aria-label="Probe progress" aria-valuemin={0} aria-valuemax={run.progress.total} aria-valuenow={run.progress.done} className="h-2 w-full overflow-hidden rounded bg-slate-100">
        <div className="h-full bg-slate-700" style={{ width: `${percent}%` }} />
      </div>
      {run.error && <p role="alert" className="text-sm text-red-700">{run.error}</p>}
      {/* On a phone each endpoint is a card (components/ui/stacked-table.ts), its verdict first. */}
      <div className={STACKED_BOX}>
        <table className={`w-full text-left text-sm ${STACKED_TABLE}`}>
          <caption className="sr-only">Each endpoint&apos;s state and verdict</caption>
          <thead className={`text-xs uppercase text-slate-500 ${STACKED_HEAD}`}>
            <tr>
              <th scope="col" className="py-1 pr-3">Endpoint</th>
              <th scope="col" className="py-1 pr-3">Verdict</th>
              <th scope="col" className="py-1 pr-3">Method</th>
              <th scope="col" className="py-1 pr-3">Requests · cost</th>
              <th scope="col" className="py-1 pr-3">Divergence from the reference</th>
              <th scope="col" className="py-1">Why</th>
            </tr>
          </thead>
          <tbody>
            {run.endpoints.map((e) => {
              const r = results.get(e.tag);
              return (
                <tr key={e.tag} className="border-t border-slate-100 align-top">
                  <th scope="row" className="py-1.5 pr-3 font-mono text-xs font-normal">{e.tag}</th>
                  <td data-label="Verdict" className="py-1.5 pr-3">{r ? <VerdictBadge verdict={r.verdict} /> : <span className="text-slate-500">{active ? "measuring…" : "—"}</span>}</td>
                  <td data-label="Method" className="py-1.5 pr-3">{e.isReference ? "reference" : (e.method ?? "—")}</td>
                  <td data-label="Requests · cost" className="py-1.5 pr-3 whitespace-nowrap">
                    {e.done} / {e.total}
                    {e.errors > 0 && <span className="text-red-700" title="Requests that ended in an error after their retries (for example a prefilled read the endpoint refused): never compared"> ({e.errors} failed)</span>}
                    {e.skipped > 0 && <span className="text-slate-600"> ({e.skipped} not sent)</span>}
                    {r && <span className="block font-mono text-xs text-slate-600">${r.costUsd}</span>}
                  </td>
                  <DivergenceCells result={r ?? null} />
                  <td data-label="Why" className="py-1.5 text-slate-700 sm:min-w-[16rem]">
                    {r?.reason ?? ""}
                    {r && r.servedBy.length > 1 ? ` · served by ${r.servedBy.join(", ")}` : ""}
                    {r?.sampler && <span className="block text-xs text-slate-500">sent: {describeSampler(r.sampler)}</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** An interval's two-sided level: "99.8%", "96%". */
function level(confidence: number): string {
  return `${(100 * confidence).toFixed(1).replace(/\.0$/, "")}%`;
}

const PREFILL_TITLES: Record<PrefillBehaviour, string> = {
  continues: "Positions read after the reference's own sampled continuation (at the run's sampler), prefilled as an assistant message: the positions a drafter is trained on",
  "new-turn": "This endpoint answers a prefilled assistant message as a new turn (its prompt tokens count one more turn than the reference's), so it was read on the greedy path only",
  refused: "This endpoint refused a prefilled assistant message, so it was read on the greedy path only",
  "not-read": "No prefilled read was answered, so it was read on the greedy path only",
  "reference-new-turn": "The reference itself answers a prefilled assistant message as a new turn (its reads after the prefix do not start where its own draft stood), so no endpoint was read on-policy",
};

/** How many of the positions are on-policy, or why none are. */
function OnPolicy({ prefill, positions }: { prefill: PrefillBehaviour; positions: number }) {
  const text = prefill === "continues" ? `${positions} of them on-policy` : prefill === "new-turn" ? "no on-policy: new turn" : prefill === "refused" ? "no on-policy: prefill refused" : prefill === "reference-new-turn" ? "no on-policy: the reference starts a new turn" : "no on-policy";
  return (
    <span data-testid="probe-on-policy" className="block text-slate-600" title={PREFILL_TITLES[prefill]}>
      {text}
    </span>
  );
}

function num(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return Math.abs(value) >= 0.001 || value === 0 ? value.toFixed(3) : value.toExponential(1);
}

/**
 * The divergence, in one cell of three lines so the reason keeps room beside it: KL with its
 * interval (95%, or the level of the sequential look that decided it); the A/A value beside Δ and the smallest divergence the run would detect; TV with its
 * A/A, top-1 agreement, and positions over prompts. Old runs show their old numbers.
 */
function DivergenceCells({ result }: { result: ResultView | null }) {
  const d = result?.divergence;
  if (!result || !d) {
    const legacy = result && result.statistic !== null ? `old probe: ${num(result.statistic)} vs noise ${num(result.noiseFloor)}` : "";
    const compared = result && result.promptsCompared > 0 ? ` · ${result.promptsCompared} prompts` : "";
    return <td data-label="Divergence" className="py-1.5 pr-3 font-mono text-xs text-slate-500">{legacy}{compared}</td>;
  }
  return (
    // Its lines wrap between their parts (never inside a number or an interval), so the table
    // fits the page beside the reason rather than scrolling sideways.
    <td data-label="Divergence" className="py-1.5 pr-3 font-mono text-xs leading-5 sm:min-w-[17rem] [&_.part]:whitespace-nowrap">
      <span className="block">
        <span className="part">
          KL <span data-testid="probe-kl">{num(d.klNats.estimate)} [{num(d.klNats.low)}, {num(d.klNats.high)}]</span>
        </span>{" "}
        nats/token
        {d.confidence !== 0.95 && <span className="text-slate-600"> ({level(d.confidence)})</span>}
      </span>
      <span className="block text-slate-600">
        <span className="part">A/A {num(d.aaKlNats.estimate)}</span> · <span className="part">Δ {num(d.deltaNats)}</span> ·{" "}
        <span className="part">{Number.isFinite(d.detectableNats) ? `80% power at ≥ ${num(d.detectableNats)}` : "too noisy to promise power"}</span>
      </span>
      <span className="block text-slate-600">
        <span className="part">TV {num(d.tv.estimate)}</span> <span className="part">(A/A {num(d.aaTv)})</span> ·{" "}
        <span className="part">top-1 {Number.isFinite(d.top1Agreement) ? `${(100 * d.top1Agreement).toFixed(1)}%` : "—"}</span>
      </span>
      <span className="block text-slate-600">
        <span className="part">{d.positions} positions</span> / <span className="part">{result.promptsCompared} prompts</span>
        {d.look && d.look.at < d.look.of && (
          <span data-testid="probe-look" className="part" title={`Decided at look ${d.look.at} of ${d.look.of} of the sequential design, on ${d.look.prompts} prompts: its later requests were not sent`}>
            {" "}· look {d.look.at} of {d.look.of}
          </span>
        )}
      </span>
      {d.prefill && <OnPolicy prefill={d.prefill} positions={d.onPolicyPositions ?? 0} />}
      {d.logprobs.endpoint !== "raw" && <span className="block text-slate-500">logprobs {d.logprobs.endpoint}</span>}
    </td>
  );
}
