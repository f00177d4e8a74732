import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

// The documented webhook verification snippet (docs/alerts.md, "Alerts: channels and delivery"),
// loaded as the very code a reader would copy: the ```js block after the `<!-- verify-snippet`
// marker, written to a module of its own and imported.

/** Where the snippet is documented, relative to the repository's root. */
export const SNIPPET_FILE = "docs/alerts.md";

export type ReadmeVerifier = (rawBody: string | Buffer, headers: Record<string, string | string[] | undefined>, secret: string, nowSeconds?: number) => boolean;

export async function loadReadmeVerifier(): Promise<ReadmeVerifier> {
  const readme = await readFile(path.join(process.cwd(), SNIPPET_FILE), "utf8");
  const marker = readme.indexOf("<!-- verify-snippet");
  if (marker < 0) throw new Error(`${SNIPPET_FILE} has no <!-- verify-snippet marker`);
  const block = /```js\n([\s\S]*?)\n```/.exec(readme.slice(marker));
  if (!block) throw new Error(`no \`\`\`js block after the verify-snippet marker in ${SNIPPET_FILE}`);
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
