import "server-only";
import { randomUUID } from "node:crypto";
import type { Prisma } from "../db/generated/client";

// The outbox of alerts. Whatever detects a change (the snapshot writer, the probe runner, the
// spend step) calls writeAlertEvent inside the same transaction that stores the change: the event
// and one delivery per enabled channel are committed with it or not at all, so no message is lost
// and none is written twice. A sender (lib/alerts/sender.ts) claims the deliveries and sends them.

export type AlertKind =
  | "included"
  | "routing"
  | "endpoint"
  | "uptime-down"
  | "uptime-recovered"
  | "probe"
  | "provenance"
  | "budget-spend"
  | "budget-run-out"
  | "key-limit"
  | "test";

export interface NewAlertEvent {
  kind: AlertKind;
  /** The saved view it is about (null for the global budget conditions and tests). */
  view?: { id: number; slug: string; name: string } | null;
  modelId?: string | null;
  /** One human sentence. */
  summary: string;
  /** Structured old/new values; money as decimal strings. */
  data: Prisma.InputJsonValue;
  observedAt: Date;
  /** Deliver only to these channels (a "Send test"); default every enabled channel. */
  channelIds?: number[];
}

export interface WrittenAlertEvent {
  id: number;
  eventId: string;
  deliveries: number;
}

/** Writes one event and its deliveries; call it with the transaction that stores the change. */
export async function writeAlertEvent(tx: Prisma.TransactionClient, event: NewAlertEvent): Promise<WrittenAlertEvent> {
  const row = await tx.alertEvent.create({
    data: {
      eventId: randomUUID(),
      kind: event.kind,
      viewId: event.view?.id ?? null,
      viewSlug: event.view?.slug ?? null,
      viewName: event.view?.name ?? null,
      modelId: event.modelId ?? null,
      summary: event.summary,
      data: event.data,
      observedAt: event.observedAt,
    },
    select: { id: true, eventId: true },
  });
  const channels = await tx.alertChannel.findMany({
    where: event.channelIds ? { id: { in: event.channelIds } } : { enabled: true },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  if (channels.length) {
    await tx.alertDelivery.createMany({ data: channels.map((c) => ({ eventId: row.id, channelId: c.id })) });
  }
  return { ...row, deliveries: channels.length };
}
