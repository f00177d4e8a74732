import "server-only";
import type { Db } from "../db/engines";
import { writeAlertEvent, type WrittenAlertEvent } from "./outbox";

/** "Send test": a test event for one channel, through the outbox like any other. */
export async function writeTestEvent(db: Db, channel: { id: number; name: string }, now = new Date()): Promise<WrittenAlertEvent> {
  return db.$transaction((tx) =>
    writeAlertEvent(tx, {
      kind: "test",
      summary: `Test message from Routeboard to the channel "${channel.name}".`,
      data: { test: true, channel: channel.name },
      observedAt: now,
      channelIds: [channel.id],
    }),
  );
}
