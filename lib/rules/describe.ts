import type { RuleSet, Verdict } from "./evaluate";
import { QUANT_CLASSES, QUANT_CLASS_IDS } from "./quantization";

// The rules of a view in a few words, for the places where a figure could otherwise be read as
// the answer (the calculator's "Cheapest included"): a reader sees which rules produced it.

/** Each active rule as a short phrase, in the order the rules panel shows them. */
export function describeActiveRules(rules: RuleSet, providerName: (tag: string) => string = (t) => t): string[] {
  const phrases: string[] = [];

  const excluded = new Set(rules.excludedQuantizations.filter((q) => q !== "unknown"));
  const quantParts: string[] = [];
  for (const id of QUANT_CLASS_IDS) {
    if (id === "unknown") continue;
    const values: readonly string[] = QUANT_CLASSES[id].values;
    if (values.every((q) => excluded.has(q))) {
      quantParts.push(QUANT_CLASSES[id].label);
      for (const q of values) excluded.delete(q);
    }
  }
  quantParts.push(...excluded);
  if (!rules.acceptUnknown || rules.excludedQuantizations.includes("unknown")) quantParts.push("unknown");
  if (quantParts.length) phrases.push(`${quantParts.join(", ")} quantization excluded`);

  if (rules.excludedTags.length) phrases.push(`${rules.excludedTags.map(providerName).join(", ")} excluded by hand`);
  if (rules.includedTags.length) phrases.push(`${rules.includedTags.map(providerName).join(", ")} included by hand`);
  if (rules.minUptime > 0) phrases.push(`uptime ≥ ${rules.minUptime}% (${rules.uptimeWindow})`);
  if (rules.requireStatusZero) phrases.push("status must be 0");
  else if (rules.excludeDegraded) phrases.push("degraded endpoints excluded");
  if (rules.maxInputPricePerM !== null) phrases.push(`input ≤ $${rules.maxInputPricePerM}/M`);
  if (rules.maxOutputPricePerM !== null) phrases.push(`output ≤ $${rules.maxOutputPricePerM}/M`);
  return phrases;
}

/**
 * One line saying which rules produced the included set and how many it holds:
 * "no rules set: all 11 included", "rules: 4-bit quantization excluded; uptime ≥ 95% (30m) · 4 of 11 included".
 */
export function rulesHeadline(rules: RuleSet, verdicts: readonly Verdict[], providerName?: (tag: string) => string): string {
  const phrases = describeActiveRules(rules, providerName);
  const included = verdicts.filter((v) => v.included).length;
  const total = verdicts.length;
  const count = included === total ? `all ${total} included` : `${included} of ${total} included`;
  // Endpoints without a listed price are always left out: say so when that is why a count is short.
  const unpriced = verdicts.filter((v) => !v.included && v.reasons.some((r) => r.kind.endsWith("-price") && r.text.startsWith("no "))).length;
  const unpricedNote = unpriced ? ` (${unpriced} without a listed price)` : "";
  return phrases.length === 0 ? `no rules set: ${count}${unpricedNote}` : `rules: ${phrases.join("; ")} · ${count}${unpricedNote}`;
}

