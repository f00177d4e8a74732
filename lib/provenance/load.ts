import "server-only";
import type { DbOrTx } from "../db/engines";
import { priceString } from "../money";
import type { SnapshotRow, TimelineInput } from "./timeline";

// The stored facts a view's timeline is built from, for the span of time its generations cover:
// the polls in force over it (with each snapshot's rows), the view's revisions, the model's
// finished probe runs with their verdicts, and the team's known quantizations.

interface SampleSql {
  observed_at: Date;
  tag: string;
  provider: string;
  quantization: string | null;
  status: number | null;
  uptime5m: number | null;
  uptime30m: number | null;
  uptime1d: number | null;
  input_price: string | null;
  output_price: string | null;
}

export async function loadTimelineInput(db: DbOrTx, viewId: number, modelId: string, from: Date, to: Date): Promise<TimelineInput> {
  // The poll in force at `from` (the latest at or before it) and every poll up to `to`.
  const [first] = await db.$queryRaw<Array<{ at: Date | null }>>`
    SELECT max("observedAt") AS at FROM "ModelPoll" WHERE "modelId" = ${modelId} AND ok AND "observedAt" <= ${from}`;
  const start = first?.at ?? from;
  const [samples, revisions, runs, known] = await Promise.all([
    db.$queryRaw<SampleSql[]>`
      SELECT s."observedAt" AS observed_at, e.tag, e."providerName" AS provider, v.quantization, s.status,
             s.uptime5m, s.uptime30m, s.uptime1d,
             s."inputPricePerM"::text AS input_price, s."outputPricePerM"::text AS output_price
        FROM "ModelPoll" p
        JOIN "Endpoint" e ON e."modelId" = p."modelId"
        JOIN "EndpointSample" s ON s."endpointId" = e.id AND s."observedAt" = p."observedAt"
        JOIN "EndpointVersion" v ON v.id = s."versionId"
       WHERE p."modelId" = ${modelId} AND p.ok AND p."observedAt" >= ${start} AND p."observedAt" <= ${to}
       ORDER BY s."observedAt", e.tag`,
    db.savedViewRevision.findMany({ where: { viewId }, orderBy: [{ validFrom: "asc" }, { id: "asc" }] }),
    db.probeRun.findMany({
      where: { modelId, status: "done", finishedAt: { not: null } },
      orderBy: [{ finishedAt: "asc" }, { id: "asc" }],
      select: { id: true, finishedAt: true, results: { select: { tag: true, verdict: true, reason: true } } },
    }),
    db.knownQuantization.findMany({ where: { modelId }, select: { tag: true, quantization: true } }),
  ]);
  const polls: TimelineInput["polls"] = [];
  for (const s of samples) {
    const at = s.observed_at.getTime();
    if (polls.length === 0 || polls[polls.length - 1].at !== at) polls.push({ at, rows: [] });
    const row: SnapshotRow = {
      tag: s.tag,
      provider: s.provider,
      quantization: s.quantization,
      status: s.status,
      uptime5m: s.uptime5m,
      uptime30m: s.uptime30m,
      uptime1d: s.uptime1d,
      inputPricePerM: priceString(s.input_price),
      outputPricePerM: priceString(s.output_price),
    };
    polls[polls.length - 1].rows.push(row);
  }
  return {
    polls,
    revisions: revisions.map((r) => ({ at: r.validFrom.getTime(), query: r.query })),
    probes: runs.map((r) => ({ at: (r.finishedAt as Date).getTime(), runId: r.id, results: r.results })),
    known,
  };
}
