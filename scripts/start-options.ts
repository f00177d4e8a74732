import { readFileSync } from "node:fs";

/**
 * The Node flags `npm start` gives the server (its heap limits, see "Memory" in docs/operations.md), read
 * from package.json so that the demo, the browser tests and `npm run load` start it alike; any
 * NODE_OPTIONS already set come after them, and so win.
 */
export function serverNodeOptions(env: Record<string, string | undefined> = process.env): string {
  const start = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts.start;
  const flags = /NODE_OPTIONS="([^"$]*)/.exec(start)?.[1].trim() ?? "";
  return [flags, env.NODE_OPTIONS ?? ""].join(" ").trim();
}
