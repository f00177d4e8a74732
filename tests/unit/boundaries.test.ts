import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The import-boundary check of `npm test` (`npm run boundaries`: dependency-cruiser with the
// project's own .dependency-cruiser.cjs), run on a small tree in tests/unit/fixtures/boundaries, so
// a rule that stopped matching (a renamed folder, a broken regular expression) shows here.

const FIXTURE = path.resolve("tests/unit/fixtures/boundaries");
const CONFIG = path.resolve(".dependency-cruiser.cjs");
const CLI = path.resolve("node_modules/dependency-cruiser/bin/dependency-cruise.mjs");

function check(...files: string[]): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [CLI, "--config", CONFIG, "--output-type", "err", ...files], { cwd: FIXTURE, encoding: "utf8" });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("import boundaries", () => {
  it("fails when a component imports lib/db, naming the rule and the import", () => {
    const { status, output } = check("components/endpoint-list.tsx");
    expect(status).not.toBe(0);
    expect(output).toContain("components-no-db-or-client: components/endpoint-list.tsx → lib/db/client.ts");
  });

  it("fails when a decision module imports lib/db", () => {
    const { status, output } = check("lib/rules/cheapest.ts");
    expect(status).not.toBe(0);
    expect(output).toContain("decisions-no-db: lib/rules/cheapest.ts → lib/db/client.ts");
  });

  it("passes a component that takes a pure helper from lib/", () => {
    const { status, output } = check("components/price.tsx");
    expect(output).toContain("no dependency violations found");
    expect(status).toBe(0);
  });
});

describe("docs/architecture.md", () => {
  it("names every folder of lib/ in its folder table", () => {
    const folders = (readdirSync("lib", { recursive: true, withFileTypes: true }) as Array<{ name: string; parentPath: string; isDirectory(): boolean }>)
      .filter((d) => d.isDirectory())
      .map((d) => `${path.relative(".", path.join(d.parentPath, d.name)).split(path.sep).join("/")}/`)
      .filter((folder) => !folder.startsWith("lib/db/generated/") || folder === "lib/db/generated/");
    const rows = new Set([...readFileSync("docs/architecture.md", "utf8").matchAll(/^\| `(lib\/[^`]+\/)` \|/gm)].map((m) => m[1]));
    expect(folders.length).toBeGreaterThan(15);
    expect(folders.filter((folder) => !rows.has(folder))).toEqual([]);
  });
});
