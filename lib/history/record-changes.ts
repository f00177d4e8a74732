import "server-only";
import type { DbOrTx } from "../db/engines";
import type { NormalisedSnapshot } from "../poller/normalise";
import { DEFAULT_UPTIME_THRESHOLD, diffSnapshots, endpointState, type EndpointState } from "./changes";

// A reaction (lib/reactions/registry.ts) to a model's snapshot, inside the writer's transaction
// (lib/poller/store.ts): compares the snapshot just written with the model's previous successful
// one and stores the changes.
// Detected once, at write time; pages only read ChangeEvent. No env here: the poller runs in
// processes without the server's modules (the threshold comes in through the cycle's options).

interface PreviousRow {
  tag: string;
  provider: string;
  quantization: string | null;
  status: number | null;
  input_price: string | null;
  output_price: string | null;
  uptime30m: number | null;
}

export async function recordChanges(
  tx: DbOrTx,
  modelId: string,
  observedAt: Date,
  snapshot: NormalisedSnapshot,
  uptimeThreshold: number = DEFAULT_UPTIME_THRESHOLD,
  /** The poll record of the snapshot being written, when it is already stored: not its own previous. */
  writtenPollId?: number,
): Promise<number> {
  // The newest ok poll other than the one being written is the previous one (read through the
  // (modelId, startedAt) index).
  const last = await tx.modelPoll.findFirst({
    where: { modelId, ok: true, ...(writtenPollId === undefined ? {} : { id: { not: writtenPollId } }) },
    orderBy: { startedAt: "desc" },
    select: { observedAt: true },
  });
  let previous: EndpointState[] | null = null;
  if (last?.observedAt) {
    const rows = await tx.$queryRaw<PreviousRow[]>`
      SELECT e.tag, e."providerName" AS provider, v.quantization, s.status,
             s."inputPricePerM"::text AS input_price, s."outputPricePerM"::text AS output_price, s.uptime30m
        FROM "Endpoint" e
        JOIN "EndpointSample" s ON s."endpointId" = e.id AND s."observedAt" = ${last.observedAt}
        JOIN "EndpointVersion" v ON v.id = s."versionId"
       WHERE e."modelId" = ${modelId}`;
    previous = rows.map((r) => ({
      tag: r.tag,
      provider: r.provider,
      quantization: r.quantization,
      status: r.status,
      inputPricePerM: r.input_price,
      outputPricePerM: r.output_price,
      uptime30m: r.uptime30m,
    }));
  }
  const next = snapshot.endpoints.map(endpointState);
  const changes = diffSnapshots(previous, next, uptimeThreshold);
  if (!changes.length) return 0;
  const ids = new Map(
    (await tx.endpoint.findMany({ where: { modelId }, select: { id: true, tag: true } })).map((e) => [e.tag, e.id]),
  );
  await tx.changeEvent.createMany({
    data: changes.map((c) => ({ modelId, endpointId: ids.get(c.tag) ?? null, observedAt, ...c })),
  });
  return changes.length;
}
