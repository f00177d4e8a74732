import { describe, expect, it } from "vitest";
import { parseUsageJsonl, plainFlat, type ParsedFile } from "@/lib/usage/parse";

// The flat records' fast path (plainFlat) against the schemas alone: on every line made here, the
// file parses to the same records and the same errors either way. Values are raw JSON text, so
// lines can hold what JSON.stringify never writes (-0, 1e400).

const MISSING = Symbol("missing");
type Raw = string | typeof MISSING;
const q = (s: string) => JSON.stringify(s);

const POOLS: Record<string, Raw[]> = {
  provider: [q("DeepInfra"), q("  Chutes "), q(""), q("   "), "5", "null", q("p".repeat(100)), q("p".repeat(101)), q(` ${"p".repeat(100)} `)],
  id: [MISSING, q("gen-1"), q(" abc "), q(""), "null", "7", q("i".repeat(200)), q("i".repeat(201))],
  model: [MISSING, q("moonshotai/kimi-k2.5"), "null", q(""), q("m".repeat(200)), q("m".repeat(201))],
  dataset: [MISSING, "null", q("B3"), q(" B4 "), q(""), q("d".repeat(80)), q("d".repeat(81)), "3"],
  tag: [MISSING, "null", q("deepinfra/fp8"), q(""), q("t".repeat(100)), q("t".repeat(101)), "false"],
  input_tokens: [MISSING, "0", "-0", "1", "200", "1.5", "-1", "1e13", "10000000000001", q("5"), "null", "1e400", "9007199254740993"],
  output_tokens: ["0", "800", "-0", "2.0", "-3", "1e14", q("9"), "null", MISSING],
  cost: [MISSING, q("0.00231"), q("0"), q("1e-7"), q("1E5"), q("-1"), q("abc"), q(""), "0.1", "0", "-0", "-0.5", "1e400", "null", q("1."), q(".5"), q("9e99999999999999999"), "1e-320"],
  occurred_at: [
    MISSING,
    q("2026-11-30T10:00:00Z"),
    q("2026-11-30T10:00:00.123+02:00"),
    q("2024-02-29T23:59:59.999999Z"),
    q("2026-02-30T10:00:00Z"),
    q("2026-11-30 10:00:00Z"),
    q("2026-11-30T10:00:00"),
    q("2026-11-30T24:00:00Z"),
    "1764500000",
    "1764500000123",
    "0",
    "-5",
    "1.5",
    "null",
    q("garbage"),
    "1e20",
  ],
};
const FIELDS = Object.keys(POOLS);
const BASE: Record<string, Raw> = { provider: q("DeepInfra"), id: q("gen-1"), model: q("moonshotai/kimi-k2.5"), dataset: q("B3"), tag: MISSING, input_tokens: "200", output_tokens: "800", cost: q("0.00231"), occurred_at: q("2026-11-30T10:00:00Z") };

const lineOf = (fields: Record<string, Raw>) =>
  `{${FIELDS.filter((k) => fields[k] !== MISSING).map((k) => `${q(k)}:${fields[k] as string}`).join(",")}}`;

/** The parse as plain values, so two parses compare with toEqual (costs as text, times as ISO or "invalid"). */
const plain = (p: ParsedFile) => ({
  ...p,
  records: p.records.map((r) => ({ ...r, costUsd: r.costUsd.toString(), occurredAt: r.occurredAt === null ? null : Number.isNaN(r.occurredAt.getTime()) ? "invalid" : r.occurredAt.toISOString() })),
});

function lcg(seed: number) {
  let x = seed >>> 0;
  return () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe("the flat records' fast path", () => {
  it("gives what the schemas give: every field's every value on a good record, and 20,000 random lines", () => {
    const lines: string[] = [];
    for (const k of FIELDS) for (const v of POOLS[k]) lines.push(lineOf({ ...BASE, [k]: v }));
    const random = lcg(20261204);
    for (let n = 0; n < 20_000; n++) {
      const fields: Record<string, Raw> = {};
      for (const k of FIELDS) fields[k] = random() < 0.5 ? BASE[k] : POOLS[k][Math.floor(random() * POOLS[k].length)];
      lines.push(lineOf(fields));
    }
    let accepted = 0;
    for (const line of lines) {
      const fast = plain(parseUsageJsonl(line));
      expect(fast, line).toEqual(plain(parseUsageJsonl(line, { schemasOnly: true })));
      accepted += fast.records.length;
    }
    // Both kinds occur: lines the schemas accept and lines they refuse.
    expect(accepted).toBeGreaterThan(1000);
    expect(accepted).toBeLessThan(lines.length - 1000);
  });

  it("is the path a pipeline's plain record takes (not a fall back to the schemas every time)", () => {
    const record = plainFlat(JSON.parse(lineOf(BASE)) as Record<string, unknown>);
    expect(record).toMatchObject({ dedupeKey: "id:gen-1", provider: "DeepInfra", modelId: "moonshotai/kimi-k2.5", dataset: "B3", inputTokens: 200, outputTokens: 800, tag: null });
    expect(record?.costUsd.toString()).toBe("0.00231");
    expect(record?.occurredAt?.toISOString()).toBe("2026-11-30T10:00:00.000Z");
    // Whatever it is not sure of goes to the schemas, which word the error.
    expect(plainFlat(JSON.parse(lineOf({ ...BASE, provider: q("   ") })) as Record<string, unknown>)).toBeUndefined();
    expect(parseUsageJsonl(lineOf({ ...BASE, provider: q("   ") })).errors[0].message).toMatch(/^provider: /);
  });
});
