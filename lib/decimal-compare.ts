// Exact comparison of decimal strings without decimal.js: the rules and the link parsers run in
// the browser on every model page, where a 12 KB decimal library for one comparison is too much
// (the page's script budget is 200 KiB). Scaled integers (BigInt), never binary floats.

/** -1, 0 or 1 as a is less than, equal to or more than b: "0.45", "12", "2.20", "1.5e-7". */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const [x, xs] = scaled(a);
  const [y, ys] = scaled(b);
  const scale = Math.max(xs, ys);
  const left = x * BigInt(10) ** BigInt(scale - xs);
  const right = y * BigInt(10) ** BigInt(scale - ys);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** A decimal string as an integer and the power of ten it is divided by. */
function scaled(text: string): [bigint, number] {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) throw new Error(`not a decimal number: "${text}"`);
  const fraction = m[3] ?? "";
  let value = BigInt((m[2] || "0") + fraction);
  let scale = fraction.length - Number(m[4] ?? 0);
  if (scale < 0) {
    value *= BigInt(10) ** BigInt(-scale);
    scale = 0;
  }
  return [m[1] === "-" ? -value : value, scale];
}
