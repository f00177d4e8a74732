import "server-only";
import { NextResponse } from "next/server";
import { jsonError } from "../http";
import type { Comparison } from "../queries/comparison";

/** The routing export as the JSON API answers it; strict, since a script acts on it unseen. */
export function routingResponse(comparison: Comparison): NextResponse {
  if (comparison.ignored.length) {
    return jsonError(400, `These query parameters could not be read: ${comparison.ignored.join(", ")}`);
  }
  if (comparison.routing.provider.only.length === 0) {
    return jsonError(422, "No provider is included under these rules; an empty `only` list would not restrict routing");
  }
  return NextResponse.json({
    ...comparison.routing,
    model: comparison.snapshot.model.id,
    snapshotAt: comparison.snapshot.polledAt,
    demo: comparison.snapshot.demo,
    included: comparison.verdicts.filter((v) => v.included).map((v) => v.tag),
  });
}
