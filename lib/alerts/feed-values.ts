// How an event's old and new values read, in the feed and the in-app list alike.

/** A value for people: "0.80", or "inputPricePerM 0.80, outputPricePerM 3.75" for a flat object. */
export function showValue(v: unknown): string {
  if (v === undefined || v === null) return "none";
  if (typeof v === "string") return v;
  if (typeof v === "object" && !Array.isArray(v)) {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.every(([, x]) => x === null || typeof x !== "object")) return entries.map(([k, x]) => `${k} ${x ?? "none"}`).join(", ");
  }
  return JSON.stringify(v);
}
