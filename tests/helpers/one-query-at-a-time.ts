// A transaction holds one connection, which answers one query at a time: pg queues a query sent on
// it while another runs, warns once per process that this is deprecated, and will refuse it from
// pg 9 (lib/db/one-connection.ts: Prisma splits a big createMany into parts it sends at once). Here that
// warning fails the run, instead of scrolling past in its output.
process.on("warning", (warning) => {
  if (warning.name === "DeprecationWarning" && warning.message.includes("client is already executing a query")) {
    throw new Error(`A query was sent on a connection already running one (in a transaction?): ${warning.stack ?? warning.message}`);
  }
});
