"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { SubmitButton } from "@/components/ui/submit-button";

interface ImportAnswer {
  filename: string;
  lines: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  errors: Array<{ line: number; message: string }>;
}

/** Uploads a JSONL usage file to POST /api/usage and shows what was imported and what was not. */
export function UsageUploadForm() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function upload(form: HTMLFormElement) {
    setPending(true);
    setError(null);
    setAnswer(null);
    try {
      const response = await fetch("/api/usage", { method: "POST", body: new FormData(form) });
      const json: unknown = await response.json().catch(() => null);
      if (!response.ok) {
        const message = (json as { error?: { message?: string } } | null)?.error?.message;
        setError(message ?? `The upload failed (HTTP ${response.status})`);
        return;
      }
      setAnswer(json as ImportAnswer);
      form.reset();
      router.refresh();
    } catch (err) {
      setError(`The upload failed: ${(err as Error).message}`);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-2">
      <form
        aria-label="Import usage"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void upload(e.currentTarget);
        }}
      >
        <div>
          <label htmlFor="usage-file" className="block text-sm font-medium text-slate-700">Usage file (JSONL)</label>
          <input id="usage-file" name="file" type="file" accept=".jsonl,.ndjson,.json,.txt" required className="mt-1 text-sm" />
        </div>
        <SubmitButton pending={pending} busy="Importing…">Import</SubmitButton>
      </form>
      {error && <p role="alert" className="text-sm text-red-700">{error}</p>}
      {answer && (
        <div role="status" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
          <p>
            {answer.filename}: {answer.lines} lines, {answer.accepted} imported, {answer.duplicates} already imported,{" "}
            {answer.rejected} rejected.
          </p>
          {answer.errors.length > 0 && (
            <ul className="mt-1 list-disc pl-5 text-red-700">
              {answer.errors.slice(0, 10).map((e) => (
                <li key={e.line}>Line {e.line}: {e.message}</li>
              ))}
              {answer.errors.length > 10 && <li>… and {answer.errors.length - 10} more</li>}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
