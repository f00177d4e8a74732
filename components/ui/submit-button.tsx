import type { ReactNode } from "react";

/** The primary button of a form: disabled while its work runs, saying what it is doing. */
export function SubmitButton({ pending, busy, children }: { pending: boolean; busy: string; children: ReactNode }) {
  return (
    <button
      type="submit"
      disabled={pending}
      className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60"
    >
      {pending ? busy : children}
    </button>
  );
}
