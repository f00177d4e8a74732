import "server-only";
import { unreadCount } from "../alerts/notifications";
import { getDb } from "../database";
import { memo, READ_REUSE_MS } from "./memo";

/** The header's unread count: one count query, shared by the viewers of the moment; null when the database cannot answer. */
export function unreadNotificationsForHeader(): Promise<number | null> {
  return memo("unread-notifications", async () => unreadCount(await getDb()), READ_REUSE_MS).catch(() => null);
}
