// How an event's old and new values read, in the feed and the in-app list alike.

/** Words for the fields an event's value can carry; a field not named here keeps its own name. */
const FIELD_WORDS: Record<string, string> = { included: "included", verdict: "verdict" };

const price = (v: unknown) => (v === null || v === undefined ? "not listed" : `$${String(v)}/M`);

/**
 * A value for people: "0.80"; a price pair as "input $0.75/M, output $3.75/M"; another flat object
 * as "included yes, verdict differs".
 */
export function showValue(v: unknown): string {
  if (v === undefined || v === null) return "none";
  if (typeof v === "string") return v;
  if (typeof v === "object" && !Array.isArray(v)) {
    const record = v as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length === 2 && "inputPricePerM" in record && "outputPricePerM" in record) {
      return `input ${price(record.inputPricePerM)}, output ${price(record.outputPricePerM)}`;
    }
    const entries = Object.entries(record);
    if (entries.every(([, x]) => x === null || typeof x !== "object")) {
      return entries.map(([k, x]) => `${FIELD_WORDS[k] ?? k} ${x === true ? "yes" : x === false ? "no" : (x ?? "none")}`).join(", ");
    }
  }
  return JSON.stringify(v);
}
