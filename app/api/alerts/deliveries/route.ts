import { NextResponse } from "next/server";
import { z } from "zod";
import { listDeliveries, MAX_HISTORY } from "@/lib/alerts/deliveries";
import { getDb } from "@/lib/database";
import { guarded, readQuery } from "@/lib/http";

export const dynamic = "force-dynamic";

const query = z.object({
  channel: z.coerce.number({ message: "must be a channel number" }).int().positive("must be a channel number").optional(),
  limit: z.coerce.number({ message: "must be a number" }).int().min(1, "must be at least 1").max(MAX_HISTORY, `must be at most ${MAX_HISTORY}`).default(20),
});

export const GET = guarded(async (request: Request) => {
  const q = readQuery(request, query);
  if (!q.ok) return q.response;
  return NextResponse.json({ deliveries: await listDeliveries(await getDb(), { channelId: q.data.channel, limit: q.data.limit }) });
});
