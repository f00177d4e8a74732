import { NextResponse } from "next/server";
import { channelChange, channelIdParams, ChannelInputError, deleteChannel, updateChannel } from "@/lib/alerts/channels/store";
import { getDb } from "@/lib/database";
import { env } from "@/lib/env";
import { guarded, jsonError, readJson, readParams } from "@/lib/http";

export const dynamic = "force-dynamic";

interface Context {
  params: Promise<{ id: string }>;
}

export const PATCH = guarded(async (request: Request, { params }: Context) => {
  const id = readParams(await params, channelIdParams);
  if (!id.ok) return id.response;
  const body = await readJson(request, channelChange);
  if (!body.ok) return body.response;
  try {
    const channel = await updateChannel(await getDb(), id.data.id, body.data, { allowPrivate: env.ALLOW_PRIVATE_WEBHOOKS });
    return channel ? NextResponse.json({ channel }) : jsonError(404, `There is no channel ${id.data.id}`);
  } catch (err) {
    if (err instanceof ChannelInputError) return jsonError(400, err.message);
    throw err;
  }
});

export const DELETE = guarded(async (_request: Request, { params }: Context) => {
  const id = readParams(await params, channelIdParams);
  if (!id.ok) return id.response;
  return (await deleteChannel(await getDb(), id.data.id)) ? new NextResponse(null, { status: 204 }) : jsonError(404, `There is no channel ${id.data.id}`);
});
