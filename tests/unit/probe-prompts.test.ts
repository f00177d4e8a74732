import { describe, expect, it } from "vitest";
import { BUILTIN_PROMPTS, parsePromptsJsonl, promptSetVersion } from "@/lib/probe/prompts";

describe("uploaded prompt files (JSONL)", () => {
  it("reads both line shapes and skips blank lines", () => {
    const text = ['{"prompt": "Name a river."}', "", '{"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]}'].join("\r\n");
    const { prompts, errors } = parsePromptsJsonl(text);
    expect(errors).toEqual([]);
    expect(prompts).toEqual([
      { category: "uploaded", messages: [{ role: "user", content: "Name a river." }] },
      { category: "uploaded", messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Hi" }] },
    ]);
  });

  it("names each bad line's number and reason, with the field", () => {
    const lines = [
      '{"prompt": "fine"}',
      "not json",
      '{"messages": [{"role": "robot", "content": "hi"}]}',
      '{"text": "where?"}',
      '{"prompt": 5}',
      '{"messages": []}',
      "[1, 2]",
      '{"messages": [{"role": "user", "content": ""}]}',
    ];
    expect(parsePromptsJsonl(lines.join("\n")).errors).toEqual([
      { line: 2, message: "not valid JSON" },
      { line: 3, message: "messages[0].role: must be system, user or assistant" },
      { line: 4, message: 'needs "messages" (a list of {"role", "content"}) or "prompt" (a string)' },
      { line: 5, message: "prompt: must be a string" },
      { line: 6, message: "messages: must hold at least one message" },
      { line: 7, message: 'expected a JSON object with "messages" or "prompt"' },
      { line: 8, message: "messages[0].content: must not be empty" },
    ]);
  });

  it("the built-in set has at least 40 prompts and its version hash is pinned (a change to the set must change it on purpose)", () => {
    expect(BUILTIN_PROMPTS.length).toBeGreaterThanOrEqual(40);
    expect(promptSetVersion(BUILTIN_PROMPTS)).toBe("41eaf95ea651");
    expect(promptSetVersion(BUILTIN_PROMPTS)).toBe(promptSetVersion(structuredClone(BUILTIN_PROMPTS)));
  });
});
