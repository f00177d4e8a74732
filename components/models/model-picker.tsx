"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiFetch } from "../ui/api-fetch";
import { fieldClass, Input } from "@/components/ui/input";

interface Props {
  current?: string;
  models: Array<{ id: string; name: string | null }>;
}

/** Switch between watched models, add one by its OpenRouter id, or stop watching the current one. */
export function ModelPicker({ current, models }: Props) {
  const router = useRouter();
  const [id, setId] = useState("");
  const [error, setError] = useState<string | null>(null);

  const add = useMutation({
    mutationFn: () => apiFetch<{ id: string }>("/api/models", { method: "POST", body: JSON.stringify({ id }) }),
    onSuccess: (m) => {
      setId("");
      setError(null);
      router.push(`/models/${m.id}`);
      router.refresh();
    },
    onError: (err) => setError(err.message),
  });
  const remove = useMutation({
    mutationFn: (modelId: string) => apiFetch(`/api/models/${modelId}`, { method: "DELETE" }),
    onSuccess: () => {
      router.push("/");
      router.refresh();
    },
    onError: (err) => setError(err.message),
  });

  return (
    <div className="flex flex-wrap items-end gap-3 text-sm">
      {current && (
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-500">Model</span>
          <select
            aria-label="Model"
            value={current}
            onChange={(e) => router.push(`/models/${e.target.value}`)}
            className={fieldClass({ className: "bg-white" })}
          >
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name ?? m.id}
              </option>
            ))}
          </select>
        </label>
      )}
      <form
        className="flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-500">Watch another model</span>
          <Input
            aria-label="OpenRouter model id"
            value={id}
            onChange={(e) => setId(e.target.value)}
            placeholder="author/slug"
            required
            className="w-44 font-mono text-xs"
          />
        </label>
        <button type="submit" disabled={add.isPending} className="rounded-md border border-slate-300 bg-white px-2.5 py-1 hover:bg-slate-50 disabled:opacity-60">
          {add.isPending ? "Checking…" : "Add model"}
        </button>
      </form>
      {current && (
        <button
          type="button"
          onClick={() => {
            if (window.confirm(`Stop watching ${current}? Its history stays and comes back if you add it again.`)) remove.mutate(current);
          }}
          className="rounded-md px-2 py-1 text-red-700 hover:bg-red-50"
        >
          Stop watching
        </button>
      )}
      {error && (
        <p role="alert" aria-label="Model error" className="basis-full text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
