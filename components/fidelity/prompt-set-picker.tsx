"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { formatUtc } from "@/lib/format";
import type { PromptSetSummary } from "@/lib/probe/prompt-sets";
import { fieldClass } from "@/components/ui/input";
import { refetchAfterWrite } from "@/components/ui/refetch-after-write";

// Which prompts a probe sends: the built-in set or one the team uploaded as JSONL (its own
// data-generation prompts are the best probe). An upload with a bad line is refused whole, and
// every bad line is listed with its number and reason.

export type PromptChoice = "builtin" | { id: number };

interface Props {
  value: PromptChoice;
  onChange(choice: PromptChoice): void;
}

type LineError = { line: number; message: string };
class UploadRefused extends Error {
  constructor(
    message: string,
    readonly lines: LineError[],
  ) {
    super(message);
  }
}

const key = (choice: PromptChoice) => (choice === "builtin" ? "builtin" : String(choice.id));

async function upload(file: File): Promise<PromptSetSummary & { id: number }> {
  const name = file.name.replace(/\.jsonl?$/i, "").slice(0, 100) || "uploaded prompts";
  const response = await fetch(`/api/probes/prompt-sets?name=${encodeURIComponent(name)}`, { method: "POST", body: await file.text() });
  const body = (await response.json().catch(() => null)) as
    | { id: number; name: string; version: string; prompts: number; error?: { message?: string }; errors?: LineError[] }
    | null;
  if (!response.ok || !body) throw new UploadRefused(body?.error?.message ?? `The server answered ${response.status}`, body?.errors ?? []);
  return { id: body.id, name: body.name, version: body.version, prompts: body.prompts, createdAt: null };
}

export function PromptSetPicker({ value, onChange }: Props) {
  const queryClient = useQueryClient();
  const fileId = useId();
  const [fileKey, setFileKey] = useState(0); // a new input after each upload, so the same file can be chosen again
  const sets = useQuery({
    queryKey: ["probe-prompt-sets"],
    queryFn: async () => {
      const response = await fetch("/api/probes/prompt-sets");
      if (!response.ok) throw new Error(`The server answered ${response.status}`);
      return ((await response.json()) as { sets: PromptSetSummary[] }).sets;
    },
    staleTime: 60_000,
  });
  const uploading = useMutation({
    mutationFn: upload,
    onSuccess: async (set) => {
      await refetchAfterWrite(queryClient, ["probe-prompt-sets"]);
      onChange({ id: set.id });
      setFileKey((k) => k + 1);
    },
    onError: () => setFileKey((k) => k + 1),
  });
  const refused = uploading.error instanceof UploadRefused ? uploading.error : null;
  const chosen = sets.data?.find((s) => key(s.id === "builtin" ? "builtin" : { id: s.id }) === key(value));

  return (
    <div className="space-y-2 text-sm">
      <label className="block">
        <span className="font-medium text-slate-700">Prompt set</span>
        <select
          value={key(value)}
          onChange={(e) => onChange(e.target.value === "builtin" ? "builtin" : { id: Number(e.target.value) })}
          className={fieldClass({ className: "mt-1 block w-full bg-white" })}
        >
          {(sets.data ?? [{ id: "builtin", name: "Built-in", version: "…", prompts: 0, createdAt: null }]).map((s) => (
            <option key={String(s.id)} value={String(s.id)}>
              {s.id === "builtin" ? "Built-in" : `${s.name} (uploaded)`}: {s.prompts || "…"} prompts, version {s.version}
            </option>
          ))}
        </select>
      </label>
      {chosen && (
        <p className="text-xs text-slate-600" data-testid="prompt-set-chosen">
          {chosen.prompts} prompts · version <span className="font-mono">{chosen.version}</span>
          {chosen.createdAt && <> · uploaded {formatUtc(chosen.createdAt)}</>}
        </p>
      )}
      <div>
        <label htmlFor={fileId} className="font-medium text-slate-700">
          Upload your prompts (JSONL)
        </label>
        <p className="text-xs text-slate-600">
          One <code>{'{"prompt": "…"}'}</code> or <code>{'{"messages": [{"role", "content"}, …]}'}</code> per line, 10 to 500 prompts.
        </p>
        <input
          key={fileKey}
          id={fileId}
          type="file"
          accept=".jsonl,.json,.txt,application/jsonl,application/json,text/plain"
          disabled={uploading.isPending}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) uploading.mutate(file);
          }}
          className="mt-1 block w-full text-xs file:mr-2 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-2 file:py-1 file:text-sm"
        />
      </div>
      {uploading.isPending && <p aria-live="polite">Uploading…</p>}
      {uploading.isSuccess && (
        <p role="status" aria-label="Prompt upload" className="text-emerald-800">
          Stored “{uploading.data.name}”: {uploading.data.prompts} prompts, version {uploading.data.version}. It is picked above.
        </p>
      )}
      {uploading.error && (
        <div role="alert" aria-label="Prompt upload" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-red-800">
          <p>{refused && refused.lines.length > 0 ? "Nothing was stored:" : `Nothing was stored: ${uploading.error.message}`}</p>
          {refused && refused.lines.length > 0 && (
            <ul className="mt-1 list-disc pl-5">
              {refused.lines.slice(0, 10).map((l) => (
                <li key={`${l.line}-${l.message}`}>{l.line > 0 ? `Line ${l.line}: ${l.message}` : `The file: ${l.message}`}</li>
              ))}
              {refused.lines.length > 10 && <li>and {refused.lines.length - 10} more</li>}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
