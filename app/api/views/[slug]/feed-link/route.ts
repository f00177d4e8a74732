import { NextResponse } from "next/server";
import { FEED_TOKEN_PARAM, feedLinkState, makeFeedToken, revokeFeedToken } from "@/lib/alerts/feed-token";
import { getDb } from "@/lib/database";
import { guarded, jsonError, requestOrigin } from "@/lib/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ slug: string }> };
const noView = (slug: string) => jsonError(404, `There is no saved view "${slug}"`);

/** Whether the view has a private feed link, and since when (the link itself is never shown again). */
export const GET = guarded(async (_request: Request, context: Context) => {
  const { slug } = await context.params;
  const state = await feedLinkState(await getDb(), slug);
  return state ? NextResponse.json(state) : noView(slug);
});

/** Makes the view's private feed link (replacing the old one) and answers it, this once. */
export const POST = guarded(async (request: Request, context: Context) => {
  const { slug } = await context.params;
  const made = await makeFeedToken(await getDb(), slug);
  if (!made) return noView(slug);
  const path = `/v/${slug}/feed.xml?${FEED_TOKEN_PARAM}=${made.token}`;
  return NextResponse.json({ url: `${requestOrigin(request)}${path}`, path, createdAt: made.createdAt }, { status: 201, headers: { "cache-control": "no-store" } });
});

/** Revokes the view's private feed link: it answers 401 (BASIC_AUTH on) or 404 from then on. */
export const DELETE = guarded(async (_request: Request, context: Context) => {
  const { slug } = await context.params;
  return (await revokeFeedToken(await getDb(), slug)) ? NextResponse.json({ createdAt: null }) : noView(slug);
});
