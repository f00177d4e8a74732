"use client";

// Shown when a page fails on the server (the database unreachable, a bug): a plain message and a
// retry, never a stack trace. The error's digest matches the server log line.
export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="mx-auto max-w-lg py-16 text-center">
      <h1 className="text-2xl font-semibold">This page could not be loaded</h1>
      <p className="mt-2 text-slate-600">
        The server could not answer just now; the database may be unreachable. Stored snapshots are not affected.
      </p>
      {error.digest && <p className="mt-2 font-mono text-xs text-slate-500">Reference {error.digest}</p>}
      <button
        type="button"
        onClick={reset}
        className="mt-6 rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500"
      >
        Try again
      </button>
    </div>
  );
}
