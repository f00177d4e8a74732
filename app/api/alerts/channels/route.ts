import { NextResponse } from "next/server";
import { ChannelInputError, createChannel, listChannels, newChannelInput } from "@/lib/alerts/channels/store";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { guarded, jsonError, readJson } from "@/lib/http";

export const dynamic = "force-dynamic";

export const GET = guarded(async () => NextResponse.json({ channels: await listChannels(await getDb()) }));

/** Creates a channel; a generated webhook secret is in this answer and never again. */
export const POST = guarded(async (request: Request) => {
  const body = await readJson(request, newChannelInput);
  if (!body.ok) return body.response;
  try {
    const created = await createChannel(await getDb(), body.data, { allowPrivate: env.ALLOW_PRIVATE_WEBHOOKS });
    return NextResponse.json(created, { status: 201 });
  } catch (err) {
    if (err instanceof ChannelInputError) return jsonError(400, err.message);
    throw err;
  }
});
