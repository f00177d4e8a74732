import "server-only";
import type { Db } from "../db/engines";
import { Prisma } from "../db/generated/client";
import { publishWritten } from "../reactions/publish";
import { hashJson, type NormalisedSnapshot } from "./normalise";

// Writes one model's snapshot in a single transaction: endpoints, new versions of their static
// facts, one narrow sample row each, the raw response (only when its body is new) and the poll
// record, then publishes it to its reactions (the change log, the views' alerts: see
// lib/reactions/registry.ts) in the same transaction. A failure rolls all of it back, so there is
// never half a snapshot.

export interface SnapshotMeta {
  cycleId: number;
  modelId: string;
  startedAt: Date;
  observedAt: Date;
  attempts: number;
  demo: boolean;
  raw: string;
  rawJson: unknown;
  /** Uptime (%) whose crossing is logged as a change. */
  uptimeThreshold?: number;
  /** When the poll ended; now unless a poll of the past is being written (the demo's generated history). */
  finishedAt?: Date;
}

export async function writeSnapshot(db: Db, snapshot: NormalisedSnapshot, meta: SnapshotMeta): Promise<number> {
  const { modelId, observedAt } = meta;
  return db.$transaction(
    async (tx) => {
      const rawHash = hashJson(meta.rawJson);
      const raw = await tx.rawResponse.upsert({
        where: { modelId_sha256: { modelId, sha256: rawHash } },
        create: { modelId, sha256: rawHash, body: meta.rawJson as Prisma.InputJsonValue, firstSeenAt: observedAt },
        update: {},
        select: { id: true },
      });

      const samples: Prisma.EndpointSampleCreateManyInput[] = [];
      for (const e of snapshot.endpoints) {
        const endpoint = await tx.endpoint.upsert({
          where: { modelId_tag: { modelId, tag: e.tag } },
          create: { modelId, tag: e.tag, providerName: e.providerName, firstSeenAt: observedAt, lastSeenAt: observedAt },
          update: { providerName: e.providerName, lastSeenAt: observedAt },
          select: { id: true },
        });
        const version = await tx.endpointVersion.upsert({
          where: { endpointId_sha256: { endpointId: endpoint.id, sha256: e.factsHash } },
          create: {
            endpointId: endpoint.id,
            sha256: e.factsHash,
            ...e.facts,
            pricing: e.facts.pricing as Prisma.InputJsonValue,
            extra: e.facts.extra as Prisma.InputJsonValue,
            firstSeenAt: observedAt,
          },
          update: {},
          select: { id: true },
        });
        samples.push({
          endpointId: endpoint.id,
          observedAt,
          versionId: version.id,
          ...e.sample,
          inputPricePerM: e.sample.inputPricePerM?.toString() ?? null,
          outputPricePerM: e.sample.outputPricePerM?.toString() ?? null,
          cacheReadPricePerM: e.sample.cacheReadPricePerM?.toString() ?? null,
        });
      }
      if (samples.length) await tx.endpointSample.createMany({ data: samples });

      const poll = await tx.modelPoll.create({
        data: {
          cycleId: meta.cycleId,
          modelId,
          startedAt: meta.startedAt,
          finishedAt: meta.finishedAt ?? new Date(),
          observedAt,
          ok: true,
          attempts: meta.attempts,
          endpointCount: snapshot.endpoints.length,
          demo: meta.demo,
          rawResponseId: raw.id,
          error: snapshot.duplicateTags.length
            ? `Duplicate tags ignored: ${snapshot.duplicateTags.join(", ")}`
            : null,
        },
        select: { id: true },
      });
      // What reacts to it (the change log, the saved views' alerts) sees the poll recorded above.
      await publishWritten(tx, { kind: "snapshot", modelId, pollId: poll.id, observedAt, snapshot, uptimeThreshold: meta.uptimeThreshold });
      await tx.watchedModel.update({
        where: { id: modelId },
        data: { name: snapshot.modelName, pollLeaseUntil: null },
      });
      return poll.id;
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}
