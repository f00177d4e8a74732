import { NextResponse } from "next/server";
import { channelIdParams, findChannel } from "@/lib/alerts/channels/store";
import { wakeAlertSender } from "@/lib/jobs/alert-sender";
import { writeTestEvent } from "@/lib/alerts/test-event";
import { getDb } from "@/lib/database";
import { guarded, jsonError, readParams } from "@/lib/http";

export const dynamic = "force-dynamic";

/** "Send test": a test event to this channel only, sent at once. */
export const POST = guarded(async (_request: Request, context: { params: Promise<{ id: string }> }) => {
  const id = readParams(await context.params, channelIdParams);
  if (!id.ok) return id.response;
  const db = await getDb();
  const channel = await findChannel(db, id.data.id);
  if (!channel) return jsonError(404, `There is no channel ${id.data.id}`);
  if (!channel.enabled) return jsonError(409, `The channel "${channel.name}" is disabled: enable it to send a test`);
  const event = await writeTestEvent(db, channel);
  wakeAlertSender();
  return NextResponse.json({ eventId: event.eventId }, { status: 202 });
});
