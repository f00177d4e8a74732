import { NextResponse } from "next/server";
import { markRead, readInput, unreadCount } from "@/lib/alerts/notifications";
import { getDb } from "@/lib/database";
import { guarded, readJson } from "@/lib/http";

export const dynamic = "force-dynamic";

/** Marks notifications read: {"all": true} or {"ids": [1, 2]}. */
export const POST = guarded(async (request: Request) => {
  const body = await readJson(request, readInput);
  if (!body.ok) return body.response;
  const db = await getDb();
  const marked = await markRead(db, body.data);
  return NextResponse.json({ marked, unread: await unreadCount(db) });
});
