// Token counts as people type them: "10M", "1.5k", "2500000", "2,500,000", "2.5 m".
// Parsed exactly (no binary floats): "1.5k" is 1500, and a fraction of a token is an error.

/** More than anyone sends through an API: 10 trillion tokens. */
export const MAX_TOKENS = 10_000_000_000_000;

const MULTIPLIERS: Record<string, bigint> = { "": 1n, k: 1_000n, m: 1_000_000n, b: 1_000_000_000n };

export type TokenParse = { ok: true; tokens: number } | { ok: false; error: string };

/**
 * Parses a token count. Accepts digits with optional thousands separators (commas, underscores
 * or spaces), an optional decimal fraction, and an optional k/M/B suffix. Returns a clear error
 * for empty, negative, non-numeric, fractional and absurdly large values.
 */
export function parseTokens(input: string): TokenParse {
  const text = input.trim();
  if (text === "") return { ok: false, error: "Enter a token count, e.g. 10M or 2,500,000" };
  if (/^-/.test(text)) return { ok: false, error: "A token count cannot be negative" };
  const match = /^(\d{1,3}(?:[,_ ]\d{3})+|\d+)?(?:\.(\d+))?\s*([kmb])?$/i.exec(text);
  if (!match || (match[1] === undefined && match[2] === undefined)) {
    return { ok: false, error: `"${truncate(text)}" is not a token count; use e.g. 10M, 1.5k or 2500000` };
  }
  const whole = (match[1] ?? "0").replace(/[,_ ]/g, "");
  const fraction = match[2] ?? "";
  const multiplier = MULTIPLIERS[(match[3] ?? "").toLowerCase()];
  if (whole.length > 16) return { ok: false, error: tooLarge() };
  // value = (whole.fraction) × multiplier, computed on integers.
  const scale = 10n ** BigInt(fraction.length);
  const scaled = (BigInt(whole) * scale + BigInt(fraction || "0")) * multiplier;
  if (scaled % scale !== 0n) return { ok: false, error: "A token count must be a whole number of tokens" };
  const tokens = scaled / scale;
  if (tokens > BigInt(MAX_TOKENS)) return { ok: false, error: tooLarge() };
  return { ok: true, tokens: Number(tokens) };
}

function tooLarge(): string {
  return "That is more than 10 trillion tokens; check the number";
}

function truncate(text: string): string {
  return text.length > 24 ? `${text.slice(0, 24)}…` : text;
}

/** The compact form used in links and inputs: 10000000 → "10M", 1500 → "1.5k", 1666667 stays. */
export function compactTokens(tokens: number): string {
  for (const [suffix, size] of [["B", 1e9], ["M", 1e6], ["k", 1e3]] as const) {
    // A suffix only where it is exact with at most one decimal: 1.5k, 10M (1666667 stays).
    if (tokens >= size && (tokens * 10) % size === 0) return `${tokens / size}${suffix}`;
  }
  return String(tokens);
}

/** A readable figure for tables: "10M", "1.67M", "950k". */
export function formatTokens(tokens: number): string {
  if (tokens >= 1e9) return `${trim(tokens / 1e9)}B`;
  if (tokens >= 1e6) return `${trim(tokens / 1e6)}M`;
  if (tokens >= 1e3) return `${trim(tokens / 1e3)}k`;
  return String(tokens);
}

function trim(value: number): string {
  return value.toFixed(2).replace(/\.?0+$/, "");
}
