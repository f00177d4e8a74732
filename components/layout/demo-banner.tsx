export function DemoBanner() {
  return (
    <div role="note" aria-label="Demo data" className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900">
      <strong>Demo data.</strong> These figures come from Routeboard&apos;s local OpenRouter replica, not from
      OpenRouter (in <code className="font-mono">npm run demo</code>, after a generated month of scripted history). Point <code className="font-mono">OPENROUTER_BASE_URL</code> at OpenRouter for live data.
    </div>
  );
}
