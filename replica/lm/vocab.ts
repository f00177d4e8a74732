// The network's vocabulary: one token per printable ASCII character and newline, an unknown
// token for everything else, and the chat template's special tokens. A character-level vocabulary
// keeps the network small and its tokenizer exact; the replica's usage still counts prompt tokens
// the way the recorded Kimi tokenizer would (about four characters a token, replica/language-model.ts).

export const SPECIAL = { bos: 0, system: 1, user: 2, assistant: 3, end: 4 } as const;
const SPECIAL_TEXT = ["<|bos|>", "<|system|>", "<|user|>", "<|assistant|>", "<|end|>"];
const NEWLINE = 5;
const FIRST_PRINTABLE = 6; // ' ' (32) .. '~' (126)
export const UNKNOWN = FIRST_PRINTABLE + 95;
export const VOCAB_SIZE = UNKNOWN + 1;

/** The text of a token id, as an API lists it. */
export function tokenText(id: number): string {
  if (id < SPECIAL_TEXT.length) return SPECIAL_TEXT[id];
  if (id === NEWLINE) return "\n";
  if (id === UNKNOWN) return "\uFFFD";
  return String.fromCharCode(32 + id - FIRST_PRINTABLE);
}

export function encodeText(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === "\n") out.push(NEWLINE);
    else if (code >= 32 && code <= 126) out.push(FIRST_PRINTABLE + code - 32);
    else if (ch === "\t") out.push(FIRST_PRINTABLE); // a tab reads as a space
    else if (ch !== "\r") out.push(UNKNOWN);
  }
  return out;
}

export interface TemplateMessage {
  role: string;
  content: string;
}

const ROLE: Record<string, number> = { system: SPECIAL.system, user: SPECIAL.user, assistant: SPECIAL.assistant };

/**
 * The chat template: <|bos|>, then per message its role token, its text and <|end|>. With
 * `continueLast` the last (assistant) message is left open, so generation continues its text
 * (a prefill); otherwise an <|assistant|> token opens a new turn.
 */
export function renderChat(messages: readonly TemplateMessage[], continueLast = false): number[] {
  const out: number[] = [SPECIAL.bos];
  messages.forEach((m, i) => {
    out.push(ROLE[m.role] ?? SPECIAL.user, ...encodeText(m.content));
    if (!(continueLast && i === messages.length - 1)) out.push(SPECIAL.end);
  });
  if (!continueLast) out.push(SPECIAL.assistant);
  return out;
}
