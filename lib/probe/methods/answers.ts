import type { TopLogprob } from "../statistics";
import type { MethodAnswer } from "./types";

// Reading stored answers: shared by the methods.

export function topLogprobsOf(value: unknown): TopLogprob[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const out: TopLogprob[] = [];
  for (const item of value) {
    if (typeof item !== "object" || item === null) return null;
    const { token, logprob } = item as { token?: unknown; logprob?: unknown };
    if (typeof token !== "string" || typeof logprob !== "number") return null;
    out.push({ token, logprob });
  }
  return out;
}

/** Answers grouped by prompt, each group turned into a value; prompts whose value is null are left out. */
export function byPrompt<T>(rows: MethodAnswer[], pick: (rows: MethodAnswer[]) => T | null): Map<number, T> {
  const groups = new Map<number, MethodAnswer[]>();
  for (const r of rows) groups.set(r.promptIndex, [...(groups.get(r.promptIndex) ?? []), r]);
  const out = new Map<number, T>();
  for (const [i, g] of groups) {
    const value = pick(g);
    if (value !== null) out.set(i, value);
  }
  return out;
}
