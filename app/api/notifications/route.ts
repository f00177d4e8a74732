import { NextResponse } from "next/server";
import { listNotifications, notificationsQuery } from "@/lib/alerts/notifications";
import { getDb } from "@/lib/database";
import { guarded, readQuery } from "@/lib/http";

export const dynamic = "force-dynamic";

/** The alert events, newest first, with their read marks and the unread count. */
export const GET = guarded(async (request: Request) => {
  const query = readQuery(request, notificationsQuery);
  if (!query.ok) return query.response;
  return NextResponse.json(await listNotifications(await getDb(), query.data));
});
