"use client";

import { useEffect, useState, type ReactNode } from "react";
import { KNOWN_QUANTIZATIONS, UPTIME_WINDOWS, type KnownQuantization, type UptimeWindow } from "@/lib/rules/vocabulary";
import type { AuthorEndpointExcluded } from "@/lib/rules/author-endpoint";
import { QUANT_CLASSES, QUANT_CLASS_IDS, type QuantClass } from "@/lib/rules/quantization";
import type { ComparisonState } from "@/lib/view-state/comparison";
import { useRovingTabIndex } from "../ui/roving";
import { fieldClass, Input } from "@/components/ui/input";

type Patch = Partial<ComparisonState>;

interface Props {
  state: ComparisonState;
  onChange(patch: Patch): void;
  /** The model author's own endpoints that the quantization rules exclude (see lib/rules/author-endpoint.ts). */
  authorExcluded?: AuthorEndpointExcluded[];
}

/** The values with a button of their own: "unknown" is one class, whose button above is its one control. */
const QUANT_VALUES = KNOWN_QUANTIZATIONS.filter((q) => q !== "unknown");

const toggleClass =
  "rounded-md border px-2.5 py-1 text-sm transition-colors aria-pressed:border-rose-300 aria-pressed:bg-rose-50 aria-pressed:text-rose-800 border-slate-300 bg-white text-slate-700 hover:bg-slate-50";

/** Include/exclude rules, set by clicking. Every control writes to the URL. */
export function RulesPanel({ state, onChange, authorExcluded = [] }: Props) {
  const excluded = new Set<string>(state.xq);
  const valueKeys = useRovingTabIndex(QUANT_VALUES, QUANT_VALUES[0], "data-quant-value", '[role="toolbar"]');
  const unknownExcluded = !state.unk;

  const classExcluded = (id: QuantClass) =>
    id === "unknown" ? unknownExcluded : QUANT_CLASSES[id].values.every((q) => excluded.has(q));

  const toggleQuantClass = (id: QuantClass) => {
    if (id === "unknown") return onChange({ unk: !state.unk, xq: state.xq.filter((q) => q !== "unknown") });
    const values: readonly KnownQuantization[] = QUANT_CLASSES[id].values;
    const next = classExcluded(id) ? state.xq.filter((q) => !values.includes(q)) : [...new Set([...state.xq, ...values])];
    onChange({ xq: next });
  };
  const toggleValue = (q: KnownQuantization) => {
    if (q === "unknown") return toggleQuantClass("unknown");
    onChange({ xq: excluded.has(q) ? state.xq.filter((x) => x !== q) : [...state.xq, q] });
  };

  return (
    <section aria-labelledby="rules-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="rules-heading" className="text-sm font-semibold text-slate-900">Rules</h2>
      <div className="mt-3 grid gap-5 lg:grid-cols-[3fr_2fr]">
        <fieldset>
          <legend className="text-xs font-medium tracking-wide text-slate-500 uppercase">Quantization</legend>
          <div className="mt-2 flex flex-wrap gap-2" role="group" aria-label="Quantization classes">
            {QUANT_CLASS_IDS.map((id) => (
              <button
                key={id}
                type="button"
                aria-pressed={classExcluded(id)}
                onClick={() => toggleQuantClass(id)}
                className={toggleClass}
              >
                Exclude {QUANT_CLASSES[id].label}
              </button>
            ))}
          </div>
          {/* One tab stop for the eleven values (a toolbar: arrow keys, Home and End move within it), so
              the keyboard reaches the thresholds and the table without eleven stops on the way. */}
          <div className="mt-2 flex flex-wrap gap-1.5" role="toolbar" aria-label="Quantization values">
            {/* "unknown" is one class of its own: its button above is the one control for it. */}
            {QUANT_VALUES.map((q) => (
              <button
                key={q}
                type="button"
                aria-pressed={excluded.has(q)}
                aria-label={`Exclude ${q}`}
                {...valueKeys.props(q)}
                onClick={() => toggleValue(q)}
                className={`${toggleClass} px-2 py-0.5 font-mono text-xs`}
              >
                {q}
              </button>
            ))}
          </div>
          <label className="mt-3 flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={state.unk}
              onChange={(e) => onChange({ unk: e.target.checked, xq: state.xq.filter((q) => q !== "unknown") })}
              className="h-4 w-4 rounded border-slate-300"
            />
            Accept unknown quantization (flagged as unverified)
          </label>
          {authorExcluded.map((a) => (
            <p key={a.tag} role="note" aria-label="Author’s own endpoint" className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
              {a.includedByHand ? "This would exclude " : "This excludes "}
              <strong>{a.provider}</strong> (<code>{a.tag}</code>, {a.quantization}), the model author’s own endpoint
              {a.isProbeReference ? " and the fidelity probe’s reference" : ""}
              {a.includedByHand ? ", which you included by hand. " : ". "}
              Some models are released quantized: {a.quantization} may be how the author released this model, not a
              cheaper copy of it{a.isProbeReference ? "; the probe measures the other endpoints against it" : ""}.
            </p>
          ))}
        </fieldset>

        <fieldset className="grid grid-cols-2 gap-3 text-sm">
          <legend className="col-span-2 text-xs font-medium tracking-wide text-slate-500 uppercase">Thresholds</legend>
          <label className="flex flex-col gap-1">
            <span className="text-slate-700">Minimum uptime (%)</span>
            <NumberInput
              value={state.upmin === 0 ? "" : String(state.upmin)}
              placeholder="off"
              onCommit={(v) => onChange({ upmin: v === "" ? 0 : Math.min(100, Math.max(0, Number(v))) })}
              pattern={/^\d{0,3}(\.\d{0,2})?$/}
            />
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-slate-700">Uptime window</span>
            <select
              value={state.upw}
              onChange={(e) => onChange({ upw: e.target.value as UptimeWindow })}
              className={fieldClass({ className: "bg-white" })}
            >
              {UPTIME_WINDOWS.map((w) => (
                <option key={w} value={w}>
                  last {w}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-slate-700">Max input $/M</span>
            <NumberInput value={state.maxin ?? ""} placeholder="any" onCommit={(v) => onChange({ maxin: v || null })} pattern={/^\d{0,6}(\.\d{0,6})?$/} />
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-slate-700">Max output $/M</span>
            <NumberInput value={state.maxout ?? ""} placeholder="any" onCommit={(v) => onChange({ maxout: v || null })} pattern={/^\d{0,6}(\.\d{0,6})?$/} />
          </label>
          <RuleCheckbox state={state} onChange={onChange} rule="st0">
            Status must be 0 (OpenRouter marks degraded endpoints below 0)
          </RuleCheckbox>
          <RuleCheckbox state={state} onChange={onChange} rule="deg">
            Exclude degraded endpoints (status below 0; on by default)
          </RuleCheckbox>
          <RuleCheckbox state={state} onChange={onChange} rule="xprobe">
            Exclude endpoints whose latest probe did not match the reference (differs, prompt format, not pinned)
          </RuleCheckbox>
          <RuleCheckbox state={state} onChange={onChange} rule="xdiff">
            Exclude endpoints the probe found to differ by more than Δ (on by default)
          </RuleCheckbox>
          <RuleCheckbox state={state} onChange={onChange} rule="xverify">
            Include only endpoints verified equivalent (excludes never probed, cannot tell, unverifiable)
          </RuleCheckbox>
        </fieldset>
      </div>
    </section>
  );
}

type BooleanRule = { [K in keyof ComparisonState]: ComparisonState[K] extends boolean ? K : never }[keyof ComparisonState];

/** One on/off rule of the link's state, as a labelled checkbox across the thresholds' two columns. */
function RuleCheckbox({ state, onChange, rule, children }: { state: ComparisonState; onChange(patch: Patch): void; rule: BooleanRule; children: ReactNode }) {
  return (
    <label className="col-span-2 flex items-center gap-2 text-slate-700">
      <input type="checkbox" checked={state[rule]} onChange={(e) => onChange({ [rule]: e.target.checked })} className="h-4 w-4 rounded border-slate-300" />
      {children}
    </label>
  );
}

/** A text field that accepts only what `pattern` allows and commits each valid value to the URL. */
function NumberInput({
  value,
  placeholder,
  onCommit,
  pattern,
}: {
  value: string;
  placeholder: string;
  onCommit(v: string): void;
  pattern: RegExp;
}) {
  const [text, setText] = useState(value);
  useEffect(() => {
    setText((current) => (Number(current) === Number(value) && current !== "" && value !== "" ? current : value));
  }, [value]);
  return (
    <Input
      inputMode="decimal"
      value={text}
      placeholder={placeholder}
      onChange={(e) => {
        const v = e.target.value.trim();
        if (!pattern.test(v)) return;
        setText(v);
        if (v !== ".") onCommit(v.endsWith(".") ? v.slice(0, -1) : v);
      }}
      className="tabular-nums"
    />
  );
}
