"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { ProbeSettingsView } from "@/lib/probe/model-settings";
import { describeSampler } from "@/lib/probe/settings";
import { formatUtc } from "@/lib/format";
import { apiFetch } from "../ui/api-fetch";

// The margin Δ and the pipeline's sampler that the model's next probe run uses: the defaults
// (Moonshot's documented sampler for Kimi K2.5, Δ 1e-3 nats/token) or the team's own, stored on the
// server. A run copies them when it starts, so a change never alters a verdict already given.

interface Fields {
  deltaNats: string;
  temperature: string;
  top_p: string;
  top_k: string;
  min_p: string;
  presence_penalty: string;
  frequency_penalty: string;
}

function fieldsOf(view: Pick<ProbeSettingsView, "deltaNats" | "sampler">): Fields {
  return {
    deltaNats: String(view.deltaNats),
    temperature: String(view.sampler.temperature),
    top_p: String(view.sampler.top_p),
    top_k: view.sampler.top_k === null ? "" : String(view.sampler.top_k),
    min_p: view.sampler.min_p === null ? "" : String(view.sampler.min_p),
    presence_penalty: String(view.sampler.presence_penalty),
    frequency_penalty: String(view.sampler.frequency_penalty),
  };
}

/** Text fields to the JSON body; a blank optional field is null, anything else is sent as typed (the server names a bad one). */
function bodyOf(f: Fields) {
  const num = (v: string) => (v.trim() === "" ? Number.NaN : Number(v.trim()));
  const orNull = (v: string) => (v.trim() === "" ? null : Number(v.trim()));
  return {
    deltaNats: num(f.deltaNats),
    temperature: num(f.temperature),
    top_p: num(f.top_p),
    top_k: orNull(f.top_k),
    min_p: orNull(f.min_p),
    presence_penalty: num(f.presence_penalty),
    frequency_penalty: num(f.frequency_penalty),
  };
}

/** The first field whose text is not a number, said before anything is sent. */
function firstBadField(f: Fields): string | null {
  const labels: Record<keyof Fields, string> = {
    deltaNats: "Margin Δ",
    temperature: "Temperature",
    top_p: "top_p",
    top_k: "top_k",
    min_p: "min_p",
    presence_penalty: "presence_penalty",
    frequency_penalty: "frequency_penalty",
  };
  for (const key of Object.keys(labels) as (keyof Fields)[]) {
    const v = f[key].trim();
    const optional = key === "top_k" || key === "min_p";
    if (v === "" && optional) continue;
    if (v === "" || !Number.isFinite(Number(v))) return `${labels[key]}: "${f[key]}" is not a number${optional ? " (leave it blank for none)" : ""}`;
  }
  return null;
}

const FIELD = "mt-1 block w-28 rounded-md border border-slate-300 px-2 py-1";

/** The form's inputs in order, each with its visible label. */
const INPUTS: ReadonlyArray<{ name: keyof Fields; label: string; inputMode: "decimal" | "numeric" }> = [
  { name: "deltaNats", label: "Margin Δ (nats/token)", inputMode: "decimal" },
  { name: "temperature", label: "Temperature", inputMode: "decimal" },
  { name: "top_p", label: "top_p", inputMode: "decimal" },
  { name: "top_k", label: "top_k (blank: none)", inputMode: "numeric" },
  { name: "min_p", label: "min_p (blank: none)", inputMode: "decimal" },
  { name: "presence_penalty", label: "presence_penalty", inputMode: "decimal" },
  { name: "frequency_penalty", label: "frequency_penalty", inputMode: "decimal" },
];

/**
 * `latestUpperBounds`: the upper ends of the KL intervals of the latest finished run. An endpoint
 * is certified only when its upper end is below Δ, so a margin below all of them is one that a run
 * of that size cannot resolve: said before the team pays for the next run.
 */
export function ProbeMargin({ basePath, latestUpperBounds = [] }: { basePath: string; latestUpperBounds?: number[] }) {
  const queryClient = useQueryClient();
  const path = `${basePath}/settings`;
  const key = ["probe-settings", path];
  const settings = useQuery({ queryKey: key, queryFn: () => apiFetch<ProbeSettingsView>(path), staleTime: 30_000 });
  const [fields, setFields] = useState<Fields | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  useEffect(() => {
    if (settings.data) setFields(fieldsOf(settings.data));
  }, [settings.data]);
  const save = useMutation({
    mutationFn: (body: ReturnType<typeof bodyOf>) => apiFetch<ProbeSettingsView>(path, { method: "PUT", body: JSON.stringify(body) }),
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
  });
  const reset = useMutation({
    mutationFn: () => apiFetch<ProbeSettingsView>(path, { method: "DELETE" }),
    onSuccess: (saved) => queryClient.setQueryData(key, saved),
  });
  const data = settings.data;
  const dirty = data && fields ? JSON.stringify(fieldsOf(data)) !== JSON.stringify(fields) : false;
  const set = (name: keyof Fields) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setLocalError(null);
    setFields((f) => (f ? { ...f, [name]: e.target.value } : f));
  };
  const error = localError ?? save.error?.message ?? reset.error?.message ?? settings.error?.message ?? null;
  const typedDelta = fields ? Number(fields.deltaNats.trim()) : Number.NaN;
  const lowestUpper = latestUpperBounds.length ? Math.min(...latestUpperBounds) : null;
  const unresolvable = lowestUpper !== null && Number.isFinite(typedDelta) && typedDelta > 0 && typedDelta <= lowestUpper;

  return (
    <form
      aria-label="Margin and sampler"
      className="space-y-2 rounded-md border border-slate-200 p-4 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        if (!fields) return;
        const bad = firstBadField(fields);
        if (bad) return setLocalError(bad);
        save.mutate(bodyOf(fields));
      }}
    >
      <h3 className="font-medium text-slate-900">Margin and sampler</h3>
      <p className="max-w-3xl text-slate-600">
        An endpoint is <em>equivalent</em> when the upper 95% bound of its divergence from the reference is below the margin Δ, and{" "}
        <em>differs</em> when the lower bound is above it. For scale: an 8-bit conversion sits near 1e-3 nats/token, a 4-bit
        re-quantization around 1e-2 to 4e-2. The sampler is the pipeline&apos;s own, sent on every request. A change applies from the next
        run; verdicts already given keep the margin they were decided with.
      </p>
      {fields && (
        <div className="flex flex-wrap items-end gap-4">
          {INPUTS.map((input) => (
            <label key={input.name}>
              <span className="text-slate-700">{input.label}</span>
              <input name={input.name} value={fields[input.name]} onChange={set(input.name)} inputMode={input.inputMode} className={FIELD} />
            </label>
          ))}
          <button type="submit" disabled={!dirty || save.isPending} className="rounded-md border border-slate-300 px-3 py-1 hover:bg-slate-50 disabled:opacity-50">
            Save margin and sampler
          </button>
          {data?.source === "team" && (
            <button type="button" onClick={() => reset.mutate()} disabled={reset.isPending} className="rounded-md border border-slate-300 px-3 py-1 hover:bg-slate-50 disabled:opacity-50">
              Back to the defaults
            </button>
          )}
        </div>
      )}
      {unresolvable && lowestUpper !== null && (
        <p role="status" data-testid="probe-margin-unresolvable" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950">
          At Δ {typedDelta}, no endpoint of the latest run would have been certified: the lowest upper end of their intervals was{" "}
          {lowestUpper.toExponential(1)} nats/token. A margin this small needs a larger run (more prompts) to tell anything.
        </p>
      )}
      {error && (
        <p role="alert" className="text-red-700">
          {error}
        </p>
      )}
      {data && (
        <p className="text-slate-600" data-testid="probe-margin-state">
          Next run: Δ {data.deltaNats} nats/token, {describeSampler(data.sampler)} ·{" "}
          {data.source === "team" && data.updatedAt ? (
            <>set by the team {formatUtc(data.updatedAt)}</>
          ) : (
            <>the defaults</>
          )}
          {data.source === "team" && (
            <>
              {" "}
              (defaults: Δ {data.defaults.deltaNats}, {describeSampler(data.defaults.sampler)})
            </>
          )}
          . Thinking stays off: the probe compares answers without reasoning.
        </p>
      )}
    </form>
  );
}
