import "server-only";
import type { DbOrTx } from "../db/engines";

// A verdict that changed since the model's previous completed probe goes into the change log
// (kind "probe"): a reaction (lib/reactions/registry.ts) to a run's results, in the same
// transaction that stores them.

export async function recordVerdictChanges(tx: DbOrTx, modelId: string, runId: number): Promise<number> {
  const current = await tx.probeResult.findMany({ where: { runId } });
  const previousRun = await tx.probeRun.findFirst({
    where: { modelId, status: "done", id: { lt: runId } },
    orderBy: { id: "desc" },
    select: { id: true },
  });
  if (!previousRun) return 0;
  const previous = new Map((await tx.probeResult.findMany({ where: { runId: previousRun.id } })).map((r) => [r.tag, r.verdict]));
  const changed = current.filter((r) => previous.has(r.tag) && previous.get(r.tag) !== r.verdict);
  if (changed.length === 0) return 0;
  const endpoints = new Map((await tx.endpoint.findMany({ where: { modelId, tag: { in: changed.map((r) => r.tag) } } })).map((e) => [e.tag, e.id]));
  await tx.changeEvent.createMany({
    data: changed.map((r) => ({
      modelId,
      endpointId: endpoints.get(r.tag) ?? null,
      tag: r.tag,
      provider: r.provider,
      kind: "probe",
      observedAt: new Date(),
      before: previous.get(r.tag) ?? null,
      after: r.verdict,
    })),
  });
  return changed.length;
}
