import "server-only";
import { Prisma } from "../db/generated/client";

// The one join from what was charged (OpenRouter's activity, the pipeline's own usage records) to
// the prices OpenRouter lists, so that both compare the same way.
//
// A charge names a provider and a model (its slug, as activity gives it, or its dated permaslug, as
// a chat completion's `model` does); it never names the endpoint in a form the public endpoint list
// shares. So the charge is priced at the last polled prices of the endpoints of that provider that
// serve that model. When they disagree (a provider serving the model at two quantizations and two
// prices), the charge has no single listed price and the join answers null rather than pick one.
// A null model (a usage record that did not say) stands for every watched model the provider serves,
// with the same rule: priced only when they all list the same price.

/**
 * A LATERAL subquery answering `list_in` and `list_out` (USD per million tokens, null when not
 * listed or ambiguous) for the charge whose provider and model are the given SQL expressions:
 * column references of the outer query, never user input.
 */
export function listedPriceLateral(providerColumn: string, modelColumn: string): Prisma.Sql {
  if (!/^[a-z_]+\.[a-z_]+$/.test(providerColumn) || !/^[a-z_]+\.[a-z_]+$/.test(modelColumn)) {
    throw new Error("listedPriceLateral takes column references only");
  }
  const provider = Prisma.raw(providerColumn);
  const model = Prisma.raw(modelColumn);
  return Prisma.sql`LATERAL (
    SELECT CASE WHEN count(*) > 0 AND count(last.list_in) = count(*) AND min(last.list_in) = max(last.list_in) THEN min(last.list_in) END AS list_in,
           CASE WHEN count(*) > 0 AND count(last.list_out) = count(*) AND min(last.list_out) = max(last.list_out) THEN min(last.list_out) END AS list_out
      FROM "Endpoint" e
      CROSS JOIN LATERAL (
        SELECT s."inputPricePerM" AS list_in, s."outputPricePerM" AS list_out
          FROM "EndpointSample" s WHERE s."endpointId" = e.id
         ORDER BY s."observedAt" DESC LIMIT 1
      ) last
     WHERE lower(e."providerName") = lower(${provider})
       AND (${model} IS NULL OR e."modelId" = ${model}
            OR EXISTS (SELECT 1 FROM "EndpointVersion" v WHERE v."endpointId" = e.id AND v."modelPermaslug" = ${model}))
  )`;
}
