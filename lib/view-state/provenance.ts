// The provenance page's URL state: ?dataset=B5 (or "(none)" for the records without one); the
// export API reads the same names. An unknown dataset falls back to all, and the page says so.

export const NO_DATASET = "(none)";

export function readProvenanceDataset(raw: string | string[] | undefined, known: readonly string[]): { dataset: string | null; unknown: string | null } {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === "") return { dataset: null, unknown: null };
  const dataset = value === NO_DATASET ? "" : value;
  return known.includes(dataset) ? { dataset, unknown: null } : { dataset: null, unknown: value };
}
