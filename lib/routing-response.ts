import "server-only";
import { NextResponse } from "next/server";
import { jsonError } from "./http";
import type { Comparison } from "./queries/comparison";
import { routingAnswer } from "./routing/answer";

/** The routing export as the JSON API answers it; strict, since a script acts on it unseen. */
export function routingResponse(comparison: Comparison): NextResponse {
  const answer = routingAnswer(comparison);
  return answer.status === 200 ? NextResponse.json(answer.body) : jsonError(answer.status, answer.error);
}
