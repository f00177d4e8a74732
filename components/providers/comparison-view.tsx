"use client";

import dynamic from "next/dynamic";
import { createSerializer, useQueryStates } from "nuqs";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { toCsv } from "@/lib/csv";
import type { KnownQuantizationEntry } from "@/lib/known-quantization";
import type { ProviderRow } from "@/lib/queries/providers";
import { buildRoutingExport } from "@/lib/routing/export";
import { authorEndpointsExcludedByQuantization } from "@/lib/rules/author-endpoint";
import { rulesHeadline } from "@/lib/rules/describe";
import { evaluateRules, summarise } from "@/lib/rules/evaluate";
import { endpointFacts } from "@/lib/rules/facts";
import type { ProbeFact } from "@/lib/rules/evaluate";
import type { SavedViewEntry } from "@/lib/saved-views";
import { budgetParsers } from "@/lib/view-state/budget";
import { comparisonParsers, toRuleSet, type ComparisonState } from "@/lib/view-state/comparison";
import type { StoredBudget } from "../budget/cost-calculator";
import { LazyCostCalculator } from "../budget/lazy-cost-calculator";
import { LazyHistorySection } from "../history/lazy-history-section";
import { PageSection } from "../models/page-sections";
import { CopyButton } from "../ui/copy-button";
import { ProviderTable, type TableRow } from "./provider-table";
import { RoutingExportPanel } from "./routing-export-panel";
import { RulesPanel } from "./rules-panel";
import { SavedViewsPanel } from "./saved-views-panel";

// The dialog's code loads the first time a row's "Record known" opens it (it stays mounted after).
const KnownQuantizationDialog = dynamic(() => import("./known-quantization-dialog").then((m) => m.KnownQuantizationDialog), { ssr: false });

const NO_PROBES: Array<ProbeFact & { tag: string }> = [];

// Links and saved views carry the whole page: the rules and the calculator's plan.
const serialize = createSerializer({ ...comparisonParsers, ...budgetParsers });

interface Props {
  modelId: string;
  endpoints: ProviderRow[];
  known: KnownQuantizationEntry[];
  views: SavedViewEntry[];
  activeView: string | null;
  /** Parts of the link the server could not read (shown once, then the URL is rewritten). */
  ignored: string[];
  /** The server's uptime threshold (UPTIME_THRESHOLD), used when the view sets none. */
  uptimeThreshold: number;
  /** Each endpoint's verdict in the latest completed fidelity probe (for the rule and the badges). */
  probes?: Array<ProbeFact & { tag: string }>;
  /** The spend page's budget: the calculator starts from it. */
  storedBudget: StoredBudget;
}

/** The comparison page's interactive part: rules → verdicts → table, export, saved views. */
export function ComparisonView({ modelId, endpoints, known: serverKnown, views, activeView, ignored, uptimeThreshold, probes = NO_PROBES, storedBudget }: Props) {
  const [urlState, setUrlState] = useQueryStates(comparisonParsers, { history: "replace", shallow: true });
  const state = urlState as ComparisonState;
  const [budgetState] = useQueryStates(budgetParsers);
  const [editing, setEditing] = useState<TableRow | null>(null);
  const [dialogWanted, setDialogWanted] = useState(false);
  // The team's notes as saved from this page, over the ones the server rendered; a newer render
  // (after a poll) has them too and takes over.
  const [savedKnown, setSavedKnown] = useState<{ over: KnownQuantizationEntry[]; known: KnownQuantizationEntry[] } | null>(null);
  const known = savedKnown?.over === serverKnown ? savedKnown.known : serverKnown;
  const returnFocus = useReturnFocus();

  const rules = useMemo(() => toRuleSet(state), [state]);
  const facts = useMemo(() => endpointFacts(endpoints, known, probes), [endpoints, known, probes]);
  const verdicts = useMemo(() => evaluateRules(facts, rules), [facts, rules]);
  const routing = useMemo(() => buildRoutingExport(facts, verdicts, rules, state.rsort), [facts, verdicts, rules, state.rsort]);

  const healthLine = state.upmin > 0 ? state.upmin : uptimeThreshold;
  const rows: TableRow[] = useMemo(() => {
    const knownByTag = new Map(known.map((k) => [k.tag, k]));
    return endpoints.map((e, i) => {
      const uptime = { "5m": e.uptime5m, "30m": e.uptime30m, "1d": e.uptime1d }[state.upw];
      const unhealthy =
        e.status !== null && e.status !== 0
          ? `status ${e.status}`
          : uptime !== null && uptime < healthLine
            ? `uptime ${uptime.toFixed(1)}%`
            : null;
      return { ...e, verdict: verdicts[i], known: knownByTag.get(e.tag) ?? null, unhealthy, probe: facts[i].probe ?? null };
    });
  }, [endpoints, known, verdicts, state.upw, healthLine, facts]);

  const setState = useCallback((patch: Partial<ComparisonState>) => void setUrlState(patch), [setUrlState]);

  const toggleLabel = useCallback(
    (row: TableRow) => `${toggleAction(row, state) === "exclude" ? "Exclude" : "Include"} ${row.provider}`,
    [state],
  );
  const onToggle = useCallback(
    (row: TableRow) => {
      const tag = row.tag;
      const action = toggleAction(row, state);
      if (action === "exclude") {
        const wasManualInclude = state.ip.includes(tag);
        setState({
          ip: state.ip.filter((t) => t !== tag),
          xp: wasManualInclude ? state.xp : [...state.xp, tag],
        });
      } else if (state.xp.includes(tag)) {
        setState({ xp: state.xp.filter((t) => t !== tag) });
      } else {
        setState({ ip: [...state.ip, tag] });
      }
    },
    [state, setState],
  );

  const query = serialize({ ...state, ...budgetState }).replace(/^\?/, "");
  const included = rows.filter((r) => r.verdict.included);

  const downloadCsv = () => {
    const header = ["provider", "tag", "verdict", "probe verdict", "probe of", "quantization", "team quantization", "input $/M", "output $/M", "cache read $/M", "status", "uptime 5m", "uptime 30m", "uptime 1d", "latency p50 ms", "throughput p50", "context", "max output"];
    const sorted = sortRowsLikeTable(rows, state);
    const csv = toCsv(
      header,
      sorted.map((r) => [r.provider, r.tag, r.verdict.label, r.probe?.verdict ?? null, r.probe?.finishedAt.slice(0, 10) ?? null, r.quantization, r.known?.quantization ?? null, r.inputPricePerM, r.outputPricePerM, r.cacheReadPricePerM, r.status, r.uptime5m, r.uptime30m, r.uptime1d, r.latencyP50Ms, r.throughputP50, r.contextLength, r.maxCompletionTokens]),
    );
    const url = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `providers-${modelId.replace("/", "-")}.csv`;
    a.click();
    URL.revokeObjectURL(url);
  };

  return (
    <div className="space-y-4">
      <PageSection id="providers">
      {ignored.length > 0 && (
        <p role="status" aria-label="Link notice" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Part of this link could not be read and was ignored: <code>{ignored.join(", ")}</code>. Those settings show their
          defaults.
        </p>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm">
        <p aria-live="polite" className="text-base font-semibold text-slate-900" data-testid="summary">
          {summarise(verdicts)}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <CopyButton text={typeof window === "undefined" ? "" : `${window.location.origin}/models/${modelId}${query ? `?${query}` : ""}`} label="Copy link" />
          <button type="button" onClick={downloadCsv} className="rounded-md border border-slate-300 bg-white px-2.5 py-1 text-sm text-slate-700 shadow-sm hover:bg-slate-50">
            Export CSV
          </button>
        </div>
      </div>
      <RulesPanel state={state} onChange={setState} authorExcluded={authorEndpointsExcludedByQuantization(modelId, facts, verdicts)} />
      <ProviderTable
        rows={rows}
        sort={state.sort}
        onSortChange={(sort) => setState({ sort })}
        onToggle={onToggle}
        toggleLabel={toggleLabel}
        onRecordQuantization={(row: TableRow) => {
          returnFocus.remember(row.tag);
          setDialogWanted(true);
          setEditing(row);
        }}
        columns={state.cols}
        onColumnsChange={(cols) => setState({ cols })}
      />
      </PageSection>
      <PageSection id="routing">
      <div className="grid gap-4 lg:grid-cols-2">
        <RoutingExportPanel
          routing={routing}
          sort={state.rsort}
          onSortChange={(rsort) => setState({ rsort })}
          apiPath={`/api/models/${modelId}/routing${query ? `?${query}` : ""}`}
        />
        <SavedViewsPanel modelId={modelId} views={views} activeSlug={activeView} query={query} includedCount={included.length} />
      </div>
      </PageSection>
      <PageSection id="budget">
      <LazyCostCalculator
        providers={included.map((r) => ({ tag: r.tag, provider: r.provider, inputPricePerM: r.inputPricePerM, outputPricePerM: r.outputPricePerM }))}
        storedBudget={storedBudget}
        rulesNote={rulesHeadline(rules, verdicts, (tag) => endpoints.find((e) => e.tag === tag)?.provider ?? tag)}
      />
      </PageSection>
      <PageSection id="history">
      <LazyHistorySection modelId={modelId} includedTags={included.map((r) => r.tag)} uptimeThreshold={healthLine} providers={endpoints.map((e) => e.provider)} />
      </PageSection>
      {dialogWanted && <KnownQuantizationDialog
        modelId={modelId}
        target={editing && { tag: editing.tag, provider: editing.provider, reported: editing.quantization, known: editing.known }}
        onClose={() => {
          setEditing(null);
          returnFocus.request();
        }}
        onSaved={(list) => setSavedKnown({ over: serverKnown, known: list })}
        onRemoved={(tag) => setSavedKnown({ over: serverKnown, known: known.filter((k) => k.tag !== tag) })}
      />}
    </div>
  );
}

/**
 * Puts the focus back where the "Known quantization" dialog was opened from once it closes (saved,
 * removed or cancelled) and the page has drawn the change: the same button, or, if that one is
 * gone or hidden (the table and the phone's cards each have one), the visible button of the same
 * row (`data-record-known`). Focusing it scrolls it into view if it is not.
 */
function useReturnFocus() {
  const opener = useRef<{ tag: string; element: HTMLElement | null } | null>(null);
  const [pending, setPending] = useState(0);
  useEffect(() => {
    const from = opener.current;
    if (pending === 0 || !from) return;
    const sameRow = [...document.querySelectorAll<HTMLElement>(`[data-record-known="${CSS.escape(from.tag)}"]`)];
    const target = [from.element, ...sameRow].find((e) => e !== null && e.isConnected && e.getClientRects().length > 0);
    target?.focus();
  }, [pending]);
  return {
    remember: (tag: string) => {
      const active = document.activeElement;
      opener.current = { tag, element: active instanceof HTMLElement ? active : null };
    },
    request: () => setPending((n) => n + 1),
  };
}

/** What the row's button does: exclude an included row, or include an excluded one. */
function toggleAction(row: TableRow, state: ComparisonState): "exclude" | "include" {
  if (state.xp.includes(row.tag)) return "include";
  if (state.ip.includes(row.tag)) return "exclude";
  const quantExcluded = row.verdict.reasons.some((r) => r.kind === "quantization" || r.kind === "unknown");
  return quantExcluded ? "include" : "exclude";
}

function sortRowsLikeTable(rows: TableRow[], state: ComparisonState): TableRow[] {
  const { column, desc } = state.sort;
  const key = (r: TableRow): string | number | null => {
    if (column === "verdict") return r.verdict.included ? 0 : 1;
    const v = r[column as keyof ProviderRow];
    if (v === null || v === undefined || Array.isArray(v)) return null;
    return typeof v === "number" || column.endsWith("PricePerM") ? Number(v) : String(v);
  };
  return [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === null) return y === null ? 0 : 1;
    if (y === null) return -1;
    const cmp = x < y ? -1 : x > y ? 1 : 0;
    return desc ? -cmp : cmp;
  });
}
