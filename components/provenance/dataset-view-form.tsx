"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiFetch } from "@/components/ui/api-fetch";

// Choose the saved view a dataset's pipeline ran under; its generations are judged again at once.

export function DatasetViewForm({ datasets, views, chosen }: { datasets: string[]; views: Array<{ slug: string; name: string; modelId: string }>; chosen: Record<string, string> }) {
  const router = useRouter();
  const [dataset, setDataset] = useState(datasets[0] ?? "");
  const [view, setView] = useState(chosen[datasets[0] ?? ""] ?? "");
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (datasets.length === 0) return null;
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      await apiFetch("/api/provenance/datasets", { method: "PUT", body: JSON.stringify({ dataset, view: view || null }) });
      setMessage("Saved; its generations were judged again.");
      router.refresh();
    } catch (err) {
      setMessage((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3 text-sm" aria-label="Choose a dataset's view">
      <label className="flex flex-col gap-1">
        <span className="text-xs font-medium text-slate-600">Dataset</span>
        <select
          value={dataset}
          onChange={(e) => {
            setDataset(e.target.value);
            setView(chosen[e.target.value] ?? "");
          }}
          className="rounded border border-slate-300 px-2 py-1"
        >
          {datasets.map((d) => (
            <option key={d} value={d}>{d === "" ? "(no dataset)" : d}</option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1">
        <span className="text-xs font-medium text-slate-600">Ran under saved view</span>
        <select value={view} onChange={(e) => setView(e.target.value)} className="rounded border border-slate-300 px-2 py-1">
          <option value="">none (generations stay unverified)</option>
          {views.map((v) => (
            <option key={v.slug} value={v.slug}>{v.name} ({v.modelId})</option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={busy} className="rounded bg-indigo-700 px-3 py-1.5 font-medium text-white hover:bg-indigo-800 disabled:opacity-60">
        {busy ? "Judging…" : "Save and judge"}
      </button>
      {message && <p role="status" className="w-full text-slate-700">{message}</p>}
    </form>
  );
}
