/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: "no-lib-cycles", severity: "error", from: { path: "^lib/" }, to: { circular: true } },
    { name: "lib-not-upward", severity: "error", from: { path: "^lib/" }, to: { path: "^(app|components|replica)/" } },
    { name: "components-no-db", severity: "error", from: { path: "^components/" }, to: { path: "^lib/db/|^lib/openrouter/(client|configured|management|management-configured)\\.ts$" } },
    { name: "decisions-no-db", severity: "error", from: { path: "^lib/(rules|routing|budget)/|^lib/probe/(divergence|verdicts|statistics)\\.ts$|^lib/probe/methods/" }, to: { path: "^lib/db/" } },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^lib/db/generated/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"], extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"] },
  },
};
