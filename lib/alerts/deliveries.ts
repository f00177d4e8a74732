import "server-only";
import type { Db } from "../db/engines";

// The delivery history shown per channel: newest first, with the state of each attempt.

export interface DeliveryView {
  id: number;
  channelId: number;
  eventId: string;
  kind: string;
  summary: string;
  viewName: string | null;
  status: "pending" | "sending" | "sent" | "retrying" | "failed";
  attempts: number;
  lastError: string | null;
  responseStatus: number | null;
  createdAt: string;
  nextAttemptAt: string | null;
  sentAt: string | null;
}

export const MAX_HISTORY = 100;

export async function listDeliveries(db: Db, { channelId, limit }: { channelId?: number; limit: number }): Promise<DeliveryView[]> {
  const rows = await db.alertDelivery.findMany({
    where: channelId === undefined ? {} : { channelId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(limit, MAX_HISTORY),
    select: {
      id: true,
      channelId: true,
      status: true,
      attempts: true,
      lastError: true,
      responseStatus: true,
      createdAt: true,
      nextAttemptAt: true,
      sentAt: true,
      event: { select: { eventId: true, kind: true, summary: true, viewName: true } },
    },
  });
  return rows.map((r) => ({
    id: r.id,
    channelId: r.channelId,
    eventId: r.event.eventId,
    kind: r.event.kind,
    summary: r.event.summary,
    viewName: r.event.viewName,
    status: r.status as DeliveryView["status"],
    attempts: r.attempts,
    lastError: r.lastError,
    responseStatus: r.responseStatus,
    createdAt: r.createdAt.toISOString(),
    nextAttemptAt: r.status === "retrying" || r.status === "pending" ? r.nextAttemptAt.toISOString() : null,
    sentAt: r.sentAt?.toISOString() ?? null,
  }));
}
