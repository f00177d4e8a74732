// The import boundaries of docs/architecture.md ("Layers"), checked by `npm run boundaries` (part
// of `npm test`). A rule's comment is what a failing check prints. Paths are relative to the
// folder the check runs in, so tests/unit/boundaries.test.ts can run this same file on a fixture.
const fs = require("node:fs");
const path = require("node:path");

/** Files of lib/ (but the generated Prisma client) that say `import "server-only"`, as paths from `root`. */
function serverOnlyFiles(root) {
  const found = [];
  const walk = (dir) => {
    if (!fs.existsSync(path.join(root, dir))) return;
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (file !== "lib/db/generated") walk(file);
      } else if (/\.tsx?$/.test(entry.name) && /^import "server-only";$/m.test(fs.readFileSync(path.join(root, file), "utf8"))) {
        found.push(file);
      }
    }
  };
  walk("lib");
  return found;
}

const escape = (file) => file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const serverOnly = serverOnlyFiles(process.cwd());
const serverOnlyPath = serverOnly.length ? `^(${serverOnly.map(escape).join("|")})$` : "^$";

/** Decisions: pure functions, no database (docs/architecture.md, "Inside lib/"). */
const DECISIONS =
  "^lib/(rules|routing|budget|view-state)/|^lib/probe/(divergence|verdicts|statistics|results|random)\\.ts$|^lib/probe/methods/";

/** The OpenRouter client and what holds its keys; its schemas (schemas.ts, chat-schemas.ts) are plain data. */
const OPENROUTER_CLIENT = "^lib/openrouter/(client|configured|errors|management|management-configured)\\.ts$";

/**
 * Type-only imports from a decision to a module that reads the database, each named in
 * docs/architecture.md: the decision takes that query's result as its input.
 */
const NAMED_TYPE_ONLY = [
  { from: "^lib/rules/facts\\.ts$", to: "^lib/queries/providers\\.ts$" },
  { from: "^lib/routing/answer\\.ts$", to: "^lib/queries/comparison\\.ts$" },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "lib-not-upward",
      comment: "lib/ never imports app/, components/, replica/, scripts/, tests/ or bench/.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(app|components|replica|scripts|tests|bench)/" },
    },
    {
      name: "lib-not-up-to-jobs",
      comment: "Only the processes (lib/jobs/) import lib/jobs/: reads, writes and decisions never reach up to the loops (routes hand their state down).",
      severity: "error",
      from: { path: "^lib/", pathNot: "^lib/jobs/" },
      to: { path: "^lib/jobs/" },
    },
    {
      name: "no-cycles-in-lib",
      comment: "No import cycles in lib/ (type-only imports count).",
      severity: "error",
      from: { path: "^lib/" },
      to: { circular: true },
    },
    {
      name: "components-no-db-or-client",
      comment: "components/ never reach lib/db/, the process's database (lib/database.ts) or the OpenRouter client: the page loads data (lib/queries/) and passes it down.",
      severity: "error",
      from: { path: "^components/" },
      to: { path: [`^lib/db/`, "^lib/database\\.ts$", OPENROUTER_CLIENT] },
    },
    {
      name: "components-only-actions-from-app",
      comment: "components/ import from app/ only the server actions that client forms call.",
      severity: "error",
      from: { path: "^components/" },
      to: { path: "^app/", pathNot: "^app/(actions|spend/[a-z-]*actions)\\.ts$" },
    },
    {
      name: "decisions-no-db",
      comment: "Decision modules (rules, routing, budget, view-state, probe statistics) import no database.",
      severity: "error",
      from: { path: DECISIONS },
      to: { path: ["^lib/db/", "^lib/database\\.ts$"] },
    },
    {
      name: "decisions-no-server-modules",
      comment:
        "Decision modules import no server-only module (one that touches the database, a secret or the environment), apart from the type-only imports named in docs/architecture.md.",
      severity: "error",
      from: { path: DECISIONS, pathNot: NAMED_TYPE_ONLY.map((n) => n.from) },
      to: { path: [serverOnlyPath, OPENROUTER_CLIENT] },
    },
    ...NAMED_TYPE_ONLY.map((named, i) => ({
      name: `decisions-named-type-only-${i + 1}`,
      comment: "This decision may import only the query module named in docs/architecture.md, and only its types.",
      severity: "error",
      from: { path: named.from },
      to: { path: [serverOnlyPath, OPENROUTER_CLIENT], pathNot: named.to },
    })),
    ...NAMED_TYPE_ONLY.map((named, i) => ({
      name: `decisions-named-type-only-${i + 1}-types`,
      comment: "The import named in docs/architecture.md is type-only.",
      severity: "error",
      from: { path: named.from },
      to: { path: named.to, dependencyTypesNot: ["type-only"] },
    })),
    {
      name: "db-users-are-server-only",
      comment: 'A lib/ file that imports lib/db/ (even its Db type) touches the database: mark it import "server-only".',
      severity: "error",
      from: { path: "^lib/", pathNot: ["^lib/db/", serverOnlyPath] },
      to: { path: "^lib/db/" },
    },
  ],
  options: {
    // The generated Prisma client is imported (those imports count) but not cruised.
    doNotFollow: { path: ["node_modules", "^lib/db/generated/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
  },
};
