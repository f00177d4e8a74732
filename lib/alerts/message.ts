// One alert event as every channel kind reads it (lib/alerts/channels/), and the link back to it.

export interface EventForMessage {
  eventId: string;
  kind: string;
  viewSlug: string | null;
  viewName: string | null;
  modelId: string | null;
  summary: string;
  data: unknown;
  observedAt: Date;
}

/** The absolute address of a saved view (or of the alerts page when the event has no view). */
export function viewUrl(baseUrl: string, slug: string): string {
  return new URL(`/v/${encodeURIComponent(slug)}`, baseUrl).toString();
}
