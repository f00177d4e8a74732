import { describe, expect, it } from "vitest";
import { judgeGeneration, type CandidateFacts, type GenerationFacts } from "@/lib/provenance/judge";

// Hand-written facts, each with the class the definitions give it.

const VIEW = { slug: "abc123de", name: "Pipeline", modelId: "moonshotai/kimi-k2.5" };
const included = { included: true, reasons: [], status: 0, quantization: "fp8", quantizationSource: "reported" as const, snapshotAt: "2026-12-01T10:00:00.000Z" };
const excludedFp4 = { ...included, included: false, reasons: ["fp4"], quantization: "fp4" };
const eq = { verdict: "equivalent", at: "2026-12-01T09:00:00.000Z", runId: 1 };
const differs = { verdict: "differs", at: "2026-12-01T12:00:00.000Z", runId: 2 };

const candidate = (c: Partial<CandidateFacts> = {}): CandidateFacts => ({
  tag: "deepinfra/fp8",
  atTime: included,
  includedWithinGraceAt: null,
  verdictBefore: eq,
  verdictAfter: null,
  ...c,
});
const facts = (f: Partial<GenerationFacts> = {}): GenerationFacts => ({
  provider: "DeepInfra",
  recordTag: null,
  modelId: "moonshotai/kimi-k2.5",
  occurredAt: "2026-12-01T10:30:00.000Z",
  view: VIEW,
  viewRulesKnown: true,
  snapshotInForce: true,
  candidates: [candidate()],
  graceMinutes: 60,
  ...f,
});

describe("judgeGeneration", () => {
  it("awaiting lookup: no provider and a lookup not answered yet; unverified once the lookup gave up", () => {
    const j = judgeGeneration(facts({ provider: null, lookup: { state: "pending", attempts: 0, error: null } }));
    expect([j.class, j.reasons]).toEqual(["awaiting", ["the record kept only its generation id: OpenRouter's /generation not yet looked up"]]);
    const again = judgeGeneration(facts({ provider: null, lookup: { state: "pending", attempts: 2, error: "HTTP 404" } }));
    expect([again.class, again.reasons]).toEqual(["awaiting", ["the record kept only its generation id: OpenRouter's /generation not yet found after 2 lookups (HTTP 404); tried again later"]]);
    const gaveUp = judgeGeneration(facts({ provider: null, lookup: { state: "not_found", attempts: 6, error: "HTTP 404" } }));
    expect([gaveUp.class, gaveUp.reasons]).toEqual(["unverified", ["OpenRouter's /generation never knew this id (6 lookups answered 404), so its provider is unknown"]]);
  });

  it("trusted: included, verified equivalent before, not contradicted after", () => {
    const j = judgeGeneration(facts({ candidates: [candidate({ verdictAfter: { verdict: "equivalent", at: "2026-12-02T00:00:00.000Z", runId: 3 } })] }));
    expect(j.class).toBe("trusted");
    expect(j.tag).toBe("deepinfra/fp8");
    expect(j.reasons).toContain("verified equivalent by the probe before (run 1, 2026-12-01T09:00:00.000Z)");
  });
  it("trusted when the first verdict after is only cannot tell", () => {
    expect(judgeGeneration(facts({ candidates: [candidate({ verdictAfter: { verdict: "cannot tell", at: "2026-12-02T00:00:00.000Z", runId: 3 } })] })).class).toBe("trusted");
  });
  it("unverified: included but never probed, or only cannot tell / unverifiable", () => {
    expect(judgeGeneration(facts({ candidates: [candidate({ verdictBefore: null })] }))).toMatchObject({ class: "unverified", reasons: expect.arrayContaining(["never probed before the generation"]) });
    expect(judgeGeneration(facts({ candidates: [candidate({ verdictBefore: { ...eq, verdict: "cannot tell" } })] })).class).toBe("unverified");
    expect(judgeGeneration(facts({ candidates: [candidate({ verdictBefore: { ...eq, verdict: "unverifiable" } })] })).class).toBe("unverified");
  });
  it("suspect: a later verdict differs, even after an equivalent one", () => {
    const j = judgeGeneration(facts({ candidates: [candidate({ verdictAfter: differs })] }));
    expect(j.class).toBe("suspect");
    expect(j.reasons).toContain("a later probe (run 2, 2026-12-01T12:00:00.000Z) found it differs");
  });
  it("suspect: the view excluded it within the grace a pipeline may keep an old allow-list", () => {
    const j = judgeGeneration(facts({ candidates: [candidate({ atTime: excludedFp4, includedWithinGraceAt: "2026-12-01T10:00:00.000Z" })] }));
    expect(j.class).toBe("suspect");
    expect(j.reasons[0]).toBe("view “Pipeline” excluded deepinfra/fp8: fp4");
    expect(j.reasons[1]).toBe("it was included until 2026-12-01T10:00:00.000Z, within the 60 min a pipeline may keep an old allow-list");
  });
  it("excluded: the view excluded it at the time and for longer than the grace", () => {
    const j = judgeGeneration(facts({ candidates: [candidate({ atTime: excludedFp4 })] }));
    expect(j).toMatchObject({ class: "excluded", included: false, quantization: "fp4" });
  });
  it("excluded: a provider the allow-list never named (no endpoint of it in the snapshot)", () => {
    const j = judgeGeneration(facts({ provider: "Leaky", candidates: [] }));
    expect(j.class).toBe("excluded");
    expect(j.reasons[0]).toMatch(/^provider Leaky had no endpoint of moonshotai\/kimi-k2.5 .* never named it/);
  });
  it("ambiguous: several endpoints and no tag are said so, judged by the least trusted", () => {
    const j = judgeGeneration(facts({ candidates: [candidate({ tag: "x/fp8" }), candidate({ tag: "x/int4", verdictBefore: null })] }));
    expect(j).toMatchObject({ class: "unverified", ambiguous: true, tag: null });
    expect(j.reasons[0]).toMatch(/^ambiguous endpoint: DeepInfra had 2 endpoints \(x\/fp8, x\/int4\)/);
  });
  it("ambiguous: excluded only when every candidate was, else suspect", () => {
    expect(judgeGeneration(facts({ candidates: [candidate({ tag: "a" }), candidate({ tag: "b", atTime: excludedFp4 })] })).class).toBe("suspect");
    expect(judgeGeneration(facts({ candidates: [candidate({ tag: "a", atTime: excludedFp4 }), candidate({ tag: "b", atTime: excludedFp4 })] })).class).toBe("excluded");
    expect(judgeGeneration(facts({ candidates: [candidate({ tag: "a" }), candidate({ tag: "b" })] }))).toMatchObject({ class: "trusted", ambiguous: true });
  });
  it("unverified when the facts to judge by are missing", () => {
    expect(judgeGeneration(facts({ view: null })).class).toBe("unverified");
    expect(judgeGeneration(facts({ occurredAt: null })).class).toBe("unverified");
    expect(judgeGeneration(facts({ provider: null })).class).toBe("unverified");
    expect(judgeGeneration(facts({ viewRulesKnown: false })).class).toBe("unverified");
    expect(judgeGeneration(facts({ snapshotInForce: false, candidates: [] })).class).toBe("unverified");
    expect(judgeGeneration(facts({ modelId: "other/model" })).class).toBe("unverified");
    // the dated permaslug a response names is the same model
    expect(judgeGeneration(facts({ modelId: "moonshotai/kimi-k2.5-20260127" })).class).toBe("trusted");
    expect(judgeGeneration(facts({ modelId: "moonshotai/kimi-k2.5-thinking" })).class).toBe("unverified");
    expect(judgeGeneration(facts({ candidates: [candidate({ atTime: null })] })).class).toBe("unverified");
  });
});
