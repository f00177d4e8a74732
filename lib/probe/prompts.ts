import { createHash } from "node:crypto";
import { z } from "zod";
import type { ChatMessage } from "../openrouter/chat-schemas";

// The built-in probe prompts: code, maths, multi-turn chat, multilingual and long context, the
// kinds of prompt a data-generation pipeline sends. The version hash changes whenever a prompt
// does, so two runs are comparable only when their versions match.

export interface ProbePrompt {
  category: "code" | "maths" | "chat" | "multilingual" | "long-context" | "uploaded";
  messages: ChatMessage[];
}

const user = (content: string): ChatMessage => ({ role: "user", content });
const system = (content: string): ChatMessage => ({ role: "system", content });
const assistant = (content: string): ChatMessage => ({ role: "assistant", content });

const code: string[] = [
  "Write a Python function that returns the n-th Fibonacci number iteratively.",
  "In TypeScript, write a debounce function with proper generic types.",
  "Explain what this SQL does: SELECT date_trunc('hour', at) AS h, count(*) FROM events GROUP BY 1 ORDER BY 1;",
  "Write a Rust function that reverses the words of a sentence in place.",
  "Find the bug: def mean(xs): return sum(xs) / len(xs) if xs else sum(xs) / len(xs)",
  "Write a bash one-liner that counts the lines of every .ts file under src/ and prints the total.",
  "Implement binary search in Go over a sorted slice of ints; return the index or -1.",
  "What does `git rebase --onto main feature~3 feature` do? Answer in two sentences.",
  "Write a C function that checks whether a string is a palindrome, ignoring case.",
  "In Python, how do I read a CSV file into a list of dictionaries?",
  "Write a JavaScript function that deep-clones a plain object without using JSON.",
];

const maths: string[] = [
  "What is 17 × 23? Answer with the number only.",
  "Solve for x: 3x + 7 = 25.",
  "A train travels 180 km in 2.5 hours. What is its average speed in km/h?",
  "Prove that the sum of two even integers is even.",
  "What is the derivative of x^3 · sin(x)?",
  "How many ways can 5 distinct books be arranged on a shelf?",
  "Compute the integral of 1/(1+x^2) from 0 to 1.",
  "Is 221 a prime number? Explain briefly.",
  "The probability of rain on each of three days is 0.2, independently. What is the probability it rains on at least one day?",
  "What is the greatest common divisor of 84 and 126?",
  "Convert 0.375 to a fraction in lowest terms.",
];

const chats: ChatMessage[][] = [
  [system("You are a concise assistant."), user("I'm planning a trip to Kyoto in April."), assistant("April is cherry blossom season, so book early."), user("Which neighbourhood should I stay in?")],
  [user("Can you help me name my bakery?"), assistant("Of course. What makes your bakery special?"), user("Sourdough, and we open at 5am.")],
  [system("You are a patient tutor."), user("What is a closure in JavaScript?"), assistant("A function together with the variables it captured from where it was defined."), user("Give me a tiny example.")],
  [user("My tomato plants have yellow leaves."), assistant("Are the lower leaves yellowing first?"), user("Yes, mostly the bottom ones.")],
  [user("Summarise the plot of Hamlet in one sentence."), assistant("A Danish prince feigns madness to avenge his father's murder, and nearly everyone dies."), user("Now do Macbeth.")],
  [system("Answer as a careful financial educator; no personal advice."), user("What is an index fund?"), assistant("A fund that holds the securities of a market index to match its return."), user("Why are their fees low?")],
  [user("Let's play twenty questions. I'm thinking of an animal."), assistant("Is it a mammal?"), user("Yes.")],
  [user("Translate 'good morning' into French."), assistant("Bonjour."), user("And how would I say it more formally in a letter?")],
];

const multilingual: string[] = [
  "Explique en deux phrases pourquoi le ciel est bleu.",
  "¿Cuál es la diferencia entre 'ser' y 'estar'? Da un ejemplo.",
  "Erkläre kurz, was ein Primzahlzwilling ist.",
  "请用三句话介绍长城的历史。",
  "日本の四季について短く説明してください。",
  "Объясните, что такое фотосинтез, в двух предложениях.",
  "Spiega la differenza tra 'c'è' e 'ci sono'.",
  "한국어로 '감사합니다'와 '고맙습니다'의 차이를 설명해 주세요.",
  "Explique em poucas palavras o que é inflação.",
  "Wat is het verschil tussen 'hun' en 'hen'? Leg kort uit.",
  "한국어로 '감사합니다'와 '고맙습니다'의 차이를 설명해 주세요.",
];

/** A long, varied document made deterministically from a few sentences, for long-context prompts. */
function longDocument(topic: string, paragraphs: number): string {
  const sentences = [
    `The ${topic} committee met on a Tuesday and reviewed the quarterly figures line by line.`,
    "Several members questioned the assumptions behind the forecast, especially the growth rate.",
    "A revised schedule was proposed, moving two milestones by three weeks each.",
    "The budget for external contractors was reduced by twelve percent after a long discussion.",
    "It was agreed that the testing phase would run in parallel with the documentation work.",
    "One member noted that the previous estimate had been optimistic by roughly a fifth.",
    "The chair asked for a written summary of the risks before the next meeting.",
    "Two new hires will join in the spring, one in operations and one in research.",
  ];
  const out: string[] = [];
  for (let p = 0; p < paragraphs; p++) {
    const para: string[] = [];
    for (let s = 0; s < 5; s++) para.push(sentences[(p * 3 + s * 5) % sentences.length]);
    out.push(`Section ${p + 1}. ${para.join(" ")}`);
  }
  return out.join("\n\n");
}

const longContext: ChatMessage[][] = [
  [user(`${longDocument("infrastructure", 24)}\n\nIn one sentence, what happened to the contractor budget?`)],
  [user(`${longDocument("research", 30)}\n\nList the milestones that moved, as briefly as you can.`)],
  [system("Read the minutes and answer precisely."), user(`${longDocument("hiring", 20)}\n\nHow many new hires are planned, and in which teams?`)],
  [user(`${longDocument("safety", 36)}\n\nWhat did the chair ask for?`)],
  [user(`Here is a log of a meeting series.\n\n${longDocument("product", 28)}\n\nWas the previous estimate optimistic or pessimistic?`)],
  [user(`${longDocument("finance", 40)}\n\nSummarise the whole document in ten words.`)],
];

// The built-in set is many short prompts: the probe's power comes from the number of prompts (its
// confidence intervals treat prompts as units), and six long-context prompts cost 90% of a run
// that held them. They stay available for a team that wants them (LONG_CONTEXT_PROMPTS); the
// team's own uploaded prompts remain the best probe.
export const BUILTIN_PROMPTS: ProbePrompt[] = [
  ...code.map((c) => ({ category: "code" as const, messages: [user(c)] })),
  ...maths.map((c) => ({ category: "maths" as const, messages: [user(c)] })),
  ...chats.map((messages) => ({ category: "chat" as const, messages })),
  ...multilingual.map((c) => ({ category: "multilingual" as const, messages: [user(c)] })),
];

export const LONG_CONTEXT_PROMPTS: ProbePrompt[] = longContext.map((messages) => ({ category: "long-context" as const, messages }));

/** The prompts a run uses when the team picks none. */
export function defaultProbePrompts(): ProbePrompt[] {
  return BUILTIN_PROMPTS;
}

export function promptSetVersion(prompts: ProbePrompt[]): string {
  return createHash("sha256").update(JSON.stringify(prompts.map((p) => p.messages))).digest("hex").slice(0, 12);
}

export const BUILTIN_VERSION = promptSetVersion(BUILTIN_PROMPTS);

// ---- The team's own prompts, uploaded as JSONL: one {"messages": [...]} (or {"prompt": "..."}) per line.

const messagesSchema = z
  .array(
    z.object({
      role: z.enum(["system", "user", "assistant"], { error: "must be system, user or assistant" }),
      content: z.string({ error: "must be a string" }).min(1, "must not be empty").max(200_000, "is over 200000 characters"),
    }),
    { error: "must be a list of {\"role\", \"content\"}" },
  )
  .min(1, "must hold at least one message")
  .max(50, "holds more than 50 messages");
const promptSchema = z.string({ error: "must be a string" }).min(1, "must not be empty").max(200_000, "is over 200000 characters");

/** Why a parsed line is not a prompt, naming the field ("messages[1].role: must be …"), or null when it is one. */
function lineProblem(json: unknown): { problem: string } | { prompt: ProbePrompt } {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return { problem: 'expected a JSON object with "messages" or "prompt"' };
  const record = json as Record<string, unknown>;
  const field = "messages" in record ? "messages" : "prompt" in record ? "prompt" : null;
  if (!field) return { problem: 'needs "messages" (a list of {"role", "content"}) or "prompt" (a string)' };
  const parsed = field === "messages" ? messagesSchema.safeParse(record.messages) : promptSchema.safeParse(record.prompt);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
    return { problem: `${field}${path}: ${issue.message}` };
  }
  const messages = typeof parsed.data === "string" ? [user(parsed.data)] : (parsed.data as ChatMessage[]);
  return { prompt: { category: "uploaded", messages } };
}

export interface ParsedPrompts {
  prompts: ProbePrompt[];
  errors: Array<{ line: number; message: string }>;
}

export const MAX_UPLOADED_PROMPTS = 500;

export function parsePromptsJsonl(text: string): ParsedPrompts {
  const prompts: ProbePrompt[] = [];
  const errors: Array<{ line: number; message: string }> = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      errors.push({ line: i + 1, message: "not valid JSON" });
      return;
    }
    const outcome = lineProblem(json);
    if ("problem" in outcome) errors.push({ line: i + 1, message: outcome.problem });
    else prompts.push(outcome.prompt);
  });
  if (prompts.length > MAX_UPLOADED_PROMPTS) errors.push({ line: 0, message: `at most ${MAX_UPLOADED_PROMPTS} prompts` });
  return { prompts, errors };
}
