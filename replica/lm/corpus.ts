import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { seededRandom } from "../../lib/probe/random";
import { encodeText, SPECIAL } from "./vocab";

// The text the network is trained and measured on: licence and notice texts that ship in
// packages this project pins (TypeScript 5.9.3 and Vite 8.3.8, both always installed for its
// tests), so training needs no download. Paragraphs are paired into chat turns
// (<|user|> paragraph <|end|> <|assistant|> paragraph <|end|>) so the network also learns the
// template. The last tenth of the paragraphs is held out: never trained on, used to measure.

export const CORPUS_FILES = ["node_modules/typescript/LICENSE.txt", "node_modules/typescript/ThirdPartyNoticeText.txt", "node_modules/vite/LICENSE.md"];

export interface Corpus {
  sha256: string;
  train: number[];
  heldOut: number[];
  /** Held-out paragraphs as text, for prompts. */
  heldOutParagraphs: string[];
}

function paragraphs(text: string): string[] {
  return text
    .replace(/\r/g, "")
    .split(/\n\s*\n/)
    .map((p) => p.replace(/[ \t]+/g, " ").trim())
    .flatMap(chunks)
    .filter((p) => p.length >= 20);
}

/** A long paragraph split into pieces of at most about 400 characters, at sentence ends where it can be. */
function chunks(paragraph: string): string[] {
  const out: string[] = [];
  let rest = paragraph;
  while (rest.length > 400) {
    const window = rest.slice(0, 400);
    const cut = Math.max(window.lastIndexOf(". "), window.lastIndexOf("\n"));
    const at = cut > 100 ? cut + 1 : 400;
    out.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  out.push(rest);
  return out;
}

function asTurns(paras: string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < paras.length; i += 2) {
    out.push(SPECIAL.bos, SPECIAL.user, ...encodeText(paras[i]), SPECIAL.end, SPECIAL.assistant);
    if (i + 1 < paras.length) out.push(...encodeText(paras[i + 1]), SPECIAL.end);
  }
  return out;
}

export function loadCorpus(root = process.cwd()): Corpus {
  const texts = CORPUS_FILES.map((f) => readFileSync(`${root}/${f}`, "utf8"));
  const sha256 = createHash("sha256").update(texts.join("\u0000")).digest("hex");
  // Licence texts repeat (the same MIT licence for many packages): keep each paragraph once, and
  // shuffle them with a fixed seed so the held-out tenth is not just the last file's tail.
  const all = [...new Set(texts.flatMap(paragraphs))];
  const random = seededRandom(20260127);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  const cut = Math.floor(all.length * 0.9) & ~1;
  return { sha256, train: asTurns(all.slice(0, cut)), heldOut: asTurns(all.slice(cut)), heldOutParagraphs: all.slice(cut) };
}
