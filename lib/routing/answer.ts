import type { Comparison } from "../queries/comparison";

// What GET /api/views/{slug}/routing (and /api/models/.../routing) answers for a comparison, as
// plain data: the route turns it into a response, and the view alerts (lib/alerts) compare the
// answer of one poll with the last one, so both see the very same JSON.

export type RoutingAnswer =
  | { status: 200; body: Record<string, unknown> & { snapshotAt: string | null } }
  | { status: 400 | 422; error: string };

export function routingAnswer(comparison: Comparison): RoutingAnswer {
  if (comparison.ignored.length) {
    return { status: 400, error: `These query parameters could not be read: ${comparison.ignored.join(", ")}` };
  }
  if (comparison.routing.provider.only.length === 0) {
    return { status: 422, error: "No provider is included under these rules; an empty `only` list would not restrict routing" };
  }
  return {
    status: 200,
    body: {
      ...comparison.routing,
      model: comparison.snapshot.model.id,
      snapshotAt: comparison.snapshot.polledAt,
      demo: comparison.snapshot.demo,
      included: comparison.verdicts.filter((v) => v.included).map((v) => v.tag),
    },
  };
}
