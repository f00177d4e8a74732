import "server-only";
import { z } from "zod";
import type { Db } from "../db/engines";

// The in-app notifications: the outbox's events (all but channel tests), newest first, with a read
// mark. The header shows the unread count; /notifications lists them.

export interface NotificationEntry {
  id: number;
  eventId: string;
  kind: string;
  summary: string;
  view: { slug: string; name: string } | null;
  modelId: string | null;
  data: unknown;
  observedAt: string;
  read: boolean;
  demo: boolean;
}

const VISIBLE = { kind: { not: "test" } };

export const notificationsQuery = z.object({
  limit: z.coerce.number().int().min(1, "must be at least 1").max(200, "must be at most 200").default(50),
  before: z.coerce.number().int().positive("must be an event number").optional(),
  unread: z.enum(["true", "false"]).optional(),
});

export const readInput = z
  .object({
    all: z.literal(true, "must be true (mark every notification read)").optional(),
    ids: z.array(z.number().int().positive()).min(1, "name at least one notification").max(500).optional(),
  })
  .strict()
  .refine((v) => v.all === true || v.ids !== undefined, { path: ["ids"], message: 'send {"all": true} or {"ids": [the notification ids]}' });

export async function unreadCount(db: Db): Promise<number> {
  return db.alertEvent.count({ where: { ...VISIBLE, readAt: null } });
}

export async function listNotifications(db: Db, q: { limit: number; before?: number; unread?: "true" | "false" }): Promise<{ notifications: NotificationEntry[]; unread: number; nextBefore: number | null }> {
  const rows = await db.alertEvent.findMany({
    where: { ...VISIBLE, ...(q.before ? { id: { lt: q.before } } : {}), ...(q.unread === "true" ? { readAt: null } : {}) },
    orderBy: { id: "desc" },
    take: q.limit + 1,
  });
  const page = rows.slice(0, q.limit);
  return {
    notifications: page.map((r) => ({
      id: r.id,
      eventId: r.eventId,
      kind: r.kind,
      summary: r.summary,
      view: r.viewSlug ? { slug: r.viewSlug, name: r.viewName ?? r.viewSlug } : null,
      modelId: r.modelId,
      data: r.data,
      observedAt: r.observedAt.toISOString(),
      read: r.readAt !== null,
      demo: Boolean((r.data as { demo?: unknown } | null)?.demo),
    })),
    unread: await unreadCount(db),
    nextBefore: rows.length > q.limit ? page[page.length - 1].id : null,
  };
}

/** Marks notifications read; returns how many were unread and now are not. */
export async function markRead(db: Db, input: z.infer<typeof readInput>, at = new Date()): Promise<number> {
  const where = input.all ? { readAt: null } : { id: { in: input.ids ?? [] }, readAt: null };
  return (await db.alertEvent.updateMany({ where, data: { readAt: at } })).count;
}
