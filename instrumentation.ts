// Runs once when the server starts: opens the database (applying migrations) before the first
// request, then starts the in-process poll scheduler. A database that cannot be reached at start
// must not take the server down with it: requests then answer 503 (and /api/health says why),
// and the database is opened on the first request or scheduled poll after it is back.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getOpenedDb } = await import("./lib/database");
  try {
    const opened = await getOpenedDb();
    console.log(`[routeboard] database ready (${opened.engine})`);
  } catch (err) {
    const reason = (err as Error).message.split("\n")[0];
    console.error(`[routeboard] the database cannot be reached at start (${reason}); will retry on the next request or poll`);
  }
  const { startScheduler } = await import("./lib/jobs/poll");
  if (startScheduler()) console.log("[routeboard] poll scheduler started");
  const { startProbeWorker } = await import("./lib/jobs/probe-worker");
  if (startProbeWorker()) console.log("[routeboard] probe worker started");
  const { startAlertSender } = await import("./lib/jobs/alert-sender");
  if (startAlertSender()) console.log("[routeboard] alert sender started");
  const { startGenerationLookup } = await import("./lib/jobs/generation-lookup");
  if (startGenerationLookup()) console.log("[routeboard] generation lookup started");
  const { startProvenanceRejudge } = await import("./lib/jobs/provenance-rejudge");
  if (startProvenanceRejudge()) console.log("[routeboard] provenance re-judgement started");
}
