"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { KNOWN_QUANTIZATIONS } from "@/lib/rules/vocabulary";
import type { KnownQuantizationEntry } from "@/lib/known-quantization";
import { apiFetch } from "../ui/api-fetch";
import { fieldClass, Input } from "@/components/ui/input";

interface Props {
  modelId: string;
  target: { tag: string; provider: string; reported: string | null; known: KnownQuantizationEntry | null } | null;
  onClose(): void;
  /** The model's notes as the server has them after a save. */
  onSaved(known: KnownQuantizationEntry[]): void;
  /** The endpoint whose note was removed. */
  onRemoved(tag: string): void;
}

// What changes is handed to the page, which draws it at once: no router refresh, which after a
// rule change (a shallow URL update) scrolled the page to the top and left the focus off screen.

/** Records what an endpoint really serves, with how the team knows; the rules then use it. */
export function KnownQuantizationDialog({ modelId, target, onClose, onSaved, onRemoved }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const url = `/api/models/${modelId}/known-quantization`;
  // Nothing is chosen for the user: a value pre-selected for every provider is one careless Save
  // away from recording a false fact. Save stays disabled until a value is picked.
  const [quantization, setQuantization] = useState("");

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (target && !dialog.open) dialog.showModal();
    if (!target && dialog.open) dialog.close();
    setError(null);
    setQuantization(target?.known?.quantization ?? "");
  }, [target]);

  const save = useMutation({
    mutationFn: (body: { tag: string; quantization: string; note: string; recordedBy: string }) =>
      apiFetch<{ known: KnownQuantizationEntry[] }>(url, { method: "PUT", body: JSON.stringify(body) }),
    onSuccess: ({ known }) => {
      onSaved(known);
      onClose();
    },
    onError: (err) => setError(err.message),
  });
  const remove = useMutation({
    mutationFn: (tag: string) => apiFetch(url, { method: "DELETE", body: JSON.stringify({ tag }) }),
    onSuccess: (_answer, tag) => {
      onRemoved(tag);
      onClose();
    },
    onError: (err) => setError(err.message),
  });

  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby="kq-title"
      className="m-auto w-[min(28rem,92vw)] rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      {target && (
        <form
          className="space-y-3 p-5"
          onSubmit={(e) => {
            e.preventDefault();
            const data = new FormData(e.currentTarget);
            save.mutate({
              tag: target.tag,
              quantization,
              note: String(data.get("note")),
              recordedBy: String(data.get("recordedBy")),
            });
          }}
        >
          <h2 id="kq-title" className="text-base font-semibold">Known quantization: {target.provider}</h2>
          <p className="text-sm text-slate-600">
            OpenRouter reports <code>{target.reported ?? "nothing"}</code> for <code>{target.tag}</code>. Record what it
            really serves; the rules will use your value.
          </p>
          <label className="flex flex-col gap-1 text-sm">
            Quantization
            <select
              name="quantization"
              required
              value={quantization}
              onChange={(e) => setQuantization(e.target.value)}
              className={fieldClass()}
            >
              <option value="" disabled>
                Choose what it really serves…
              </option>
              {KNOWN_QUANTIZATIONS.map((q) => (
                <option key={q} value={q}>
                  {q}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            How do you know?
            <textarea
              name="note"
              required
              minLength={3}
              maxLength={500}
              defaultValue={target.known?.note ?? ""}
              placeholder="confirmed by the provider's docs"
              className={fieldClass()}
            />
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Your name
            <Input name="recordedBy" required maxLength={80} defaultValue={target.known?.recordedBy ?? ""} />
          </label>
          {target.known && (
            <p className="text-xs text-slate-500">
              Recorded by {target.known.recordedBy} on {target.known.recordedAt.slice(0, 10)}.
            </p>
          )}
          {error && (
            <p role="alert" className="rounded bg-red-50 px-2 py-1 text-sm text-red-800">
              {error}
            </p>
          )}
          <div className="flex justify-between gap-2 pt-1">
            <div>
              {target.known && (
                <button type="button" onClick={() => remove.mutate(target.tag)} className="text-sm text-red-700 hover:underline">
                  Remove note
                </button>
              )}
            </div>
            <div className="flex gap-2">
              <button type="button" onClick={onClose} className="rounded-md border border-slate-300 px-3 py-1 text-sm">
                Cancel
              </button>
              <button type="submit" disabled={save.isPending || quantization === ""} className="rounded-md bg-indigo-600 px-3 py-1 text-sm text-white disabled:opacity-60">
                {save.isPending ? "Saving…" : "Save"}
              </button>
            </div>
          </div>
        </form>
      )}
    </dialog>
  );
}
