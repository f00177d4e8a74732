import Decimal from "decimal.js";
import { describe, expect, it } from "vitest";
import { pickBucket, projectRunOut } from "@/lib/spend/queries";
import { parseUsageJsonl } from "@/lib/usage/parse";

describe("parseUsageJsonl", () => {
  it("reads both shapes, keeps cost exact, and keys records by id or by a hash of the line", () => {
    const file = [
      '{"id":"gen-1","provider":"DeepInfra","model":"moonshotai/kimi-k2.5","created":1764500000,"usage":{"prompt_tokens":10,"completion_tokens":20,"cost":0.0000495}}',
      '{"provider":"Venice","input_tokens":1,"output_tokens":2,"cost":"0.1","dataset":"B5","occurred_at":"2026-11-30T10:00:00Z"}',
    ].join("\r\n");
    const parsed = parseUsageJsonl(file);
    expect(parsed.errors).toEqual([]);
    expect(parsed.records[0]).toMatchObject({ dedupeKey: "id:gen-1", provider: "DeepInfra", inputTokens: 10, outputTokens: 20, dataset: null });
    expect(parsed.records[0].costUsd.equals(new Decimal("0.0000495"))).toBe(true);
    expect(parsed.records[0].occurredAt?.toISOString()).toBe("2025-11-30T10:53:20.000Z");
    expect(parsed.records[1].dedupeKey).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(parsed.records[1].occurredAt?.toISOString()).toBe("2026-11-30T10:00:00.000Z");
    // the same record with its keys in another order is the same record
    const again = parseUsageJsonl('{"dataset":"B5","cost":"0.1","output_tokens":2,"input_tokens":1,"provider":"Venice","occurred_at":"2026-11-30T10:00:00Z"}');
    expect(again.records[0].dedupeKey).toBe(parsed.records[1].dedupeKey);
  });

  it("reports bad lines by number and says what is wrong", () => {
    const parsed = parseUsageJsonl(
      ['{"provider":"A","input_tokens":1.5,"output_tokens":1,"cost":1}', "[1,2]", '{"id":"x","provider":"A","usage":{"prompt_tokens":1}}', "", '{"provider":"A","input_tokens":1,"output_tokens":1,"cost":-2}'].join("\n"),
    );
    expect(parsed.lines).toBe(4);
    expect(parsed.errors.map((e) => e.line)).toEqual([1, 2, 3, 5]);
    expect(parsed.errors[0].message).toMatch(/input_tokens/);
    expect(parsed.errors[1].message).toBe("not a JSON object");
    expect(parsed.errors[2].message).toMatch(/usage\.completion_tokens/);
    expect(parsed.errors[3].message).toMatch(/cost/);
  });
});

describe("parseUsageJsonl: records that kept only their generation id", () => {
  it("accepts an id alone, says what it lacks, and names the field of a bad one", () => {
    const parsed = parseUsageJsonl(
      [
        '{"id":"gen-1764600001-abc","dataset":"B5"}',
        '{"id":"gen-1764600002-def","dataset":"B5","input_tokens":3,"output_tokens":4,"cost":"0.0001","occurred_at":"2026-12-01T10:00:00Z","model":"moonshotai/kimi-k2.5"}',
        '{"id":"chatcmpl-1","dataset":"B5"}',
        '{"dataset":"B5"}',
      ].join("\n"),
    );
    expect(parsed.records.map((r) => [r.dedupeKey, r.provider, r.lookup])).toEqual([
      ["id:gen-1764600001-abc", null, { generationId: "gen-1764600001-abc", missing: ["model", "tokens", "cost", "time"] }],
      ["id:gen-1764600002-def", null, { generationId: "gen-1764600002-def", missing: [] }],
    ]);
    expect(parsed.records[1].costUsd.equals(new Decimal("0.0001"))).toBe(true);
    expect(parsed.errors).toEqual([
      { line: 3, message: "id: must be an OpenRouter generation id: gen- then letters, digits, _ or -, up to 200 characters" },
      { line: 4, message: "provider: required (or give the generation id, id, to look the provider up by)" },
    ]);
  });
});

describe("spend projection", () => {
  const from = new Date("2026-11-30T12:00:00Z");
  it("runs out after remaining ÷ burn rate hours", () => {
    expect(projectRunOut(new Decimal(10), new Decimal(4), from)).toEqual({ at: "2026-11-30T14:30:00.000Z", hoursLeft: "2.50" });
    expect(projectRunOut(new Decimal(0), new Decimal(4), from)).toEqual({ at: "exhausted" });
    expect(projectRunOut(new Decimal(10), new Decimal(0), from)).toBeNull();
    expect(projectRunOut(new Decimal(10), new Decimal("1e-12"), from)).toBeNull();
  });
  it("picks a bucket width from the range, from a fixed list", () => {
    expect(pickBucket(3_600_000).width).toBe("1 minute");
    expect(pickBucket(7 * 86_400_000).width).toBe("1 hour");
    expect(pickBucket(10 * 365 * 86_400_000).width).toBe("1 day");
  });
});
