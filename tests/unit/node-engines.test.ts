import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

// `npm ci` warns EBADENGINE when an installed package asks for a newer Node than the one running.
// The README and package.json promise a minimum; every package the lockfile installs must accept
// that minimum and the Node this suite runs on (the project's machines and CI: Node 20).
const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};

function packagesRejecting(nodeVersion: string): string[] {
  const rejecting: string[] = [];
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (where === "" || Array.isArray(entry.engines)) continue;
    const range = entry.engines?.node;
    if (range && !semver.satisfies(nodeVersion, range)) rejecting.push(`${where} (node ${range})`);
  }
  return rejecting;
}

describe("the Node versions the project states", () => {
  const minimum = semver.minVersion(pkg.engines.node);

  it("package.json states a minimum", () => {
    expect(minimum?.version).toBe("20.19.0");
  });

  it("every locked package accepts the stated minimum", () => {
    expect(packagesRejecting(minimum!.version)).toEqual([]);
  });

  it("every locked package accepts the Node running the tests, which the stated range admits", () => {
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
    expect(packagesRejecting(process.versions.node)).toEqual([]);
  });

  it("README states the same minimum", () => {
    expect(readFileSync("README.md", "utf8")).toContain("Node.js 20.19+");
  });
});
