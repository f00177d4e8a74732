// The test servers keep an idle connection open for 10 minutes (Node's default: 5 s). Playwright's
// request contexts keep idle sockets for good and reuse them without reading the server's
// `Keep-Alive: timeout=5` (microsoft/playwright#42698, #42701): a request sent just as the server
// closes an idle socket fails with ECONNRESET, which a clean-clone CI run hit in probe.spec.ts
// after a 5 s wait. Outliving every test's pauses, the server never closes first. Browsers retry
// such a request by themselves, and `npm start` keeps Next.js's default.
export const KEEP_ALIVE_ARGS = ["--keepAliveTimeout", "600000"];
