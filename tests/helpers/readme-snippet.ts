import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

// The README's webhook verification snippet, loaded as the very code a reader would copy: the
// ```js block after the `<!-- verify-snippet` marker, written to a module of its own and imported.

export type ReadmeVerifier = (rawBody: string | Buffer, headers: Record<string, string | string[] | undefined>, secret: string, nowSeconds?: number) => boolean;

export async function loadReadmeVerifier(): Promise<ReadmeVerifier> {
  const readme = await readFile(path.join(process.cwd(), "README.md"), "utf8");
  const marker = readme.indexOf("<!-- verify-snippet");
  if (marker < 0) throw new Error("README.md has no <!-- verify-snippet marker");
  const block = /```js\n([\s\S]*?)\n```/.exec(readme.slice(marker));
  if (!block) throw new Error("no ```js block after the verify-snippet marker in README.md");
  const dir = await mkdtemp(path.join(tmpdir(), "routeboard-readme-"));
  const file = path.join(dir, "verify.mjs");
  await writeFile(file, `${block[1]}\nexport { verifyRouteboard };\n`);
  try {
    const loaded = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { verifyRouteboard: ReadmeVerifier };
    return loaded.verifyRouteboard;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
