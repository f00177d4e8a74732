// Runs once when the server starts: opens the database (applying migrations) before the first
// request, then starts the in-process poll scheduler.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getOpenedDb } = await import("./lib/db/client");
  const opened = await getOpenedDb();
  console.log(`[routeboard] database ready (${opened.engine})`);
  const { startScheduler } = await import("./lib/poller/service");
  if (startScheduler()) console.log("[routeboard] poll scheduler started");
}
