import { startReplica } from "./server";

// `npm run replica` / used by `npm run demo`: the replica on a fixed port until stopped.
const port = Number(process.env.REPLICA_PORT ?? 4010);
const replica = await startReplica(port);
console.log(`OpenRouter replica (demo data) at ${replica.baseUrl}`);
const stop = () => replica.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
