import type { Db } from "@/lib/db/engines";

// The judge of the provenance tally (migrations 20261204081411_provenance_tally and
// 20261207020000_usage_tally_model, read by lib/provenance/tally.ts and lib/usage/queries.ts),
// written apart from it: it counts the records and their judgements themselves, grouped the way
// the tally groups them, and reads the tally's raw rows summed here.
// Both come back as one sorted line a group, so a difference shows as a readable diff.

type Group = { dataset: string; class: string; provider: string | null; model: string | null; day: string | null; samples: string; input: string; output: string; cost: string };

function line(g: Group): string {
  return `${g.dataset || "(none)"} | ${g.class || "(not judged)"} | ${g.provider ?? "(no provider)"} | ${g.model ?? "(no model)"} | ${g.day ?? "(no time)"} | ${g.samples} samples | ${g.input} in | ${g.output} out | $${g.cost}`;
}

/** Every (dataset, class, provider, model, UTC day) group of the records as stored, counted from them. */
export async function countedFromRecords(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<Group[]>`
    SELECT coalesce(r.dataset, '') AS dataset, coalesce(j.class, '') AS class, r.provider, r."modelId" AS model,
           to_char(timezone('UTC', r."occurredAt"), 'YYYY-MM-DD') AS day,
           count(r.id)::text AS samples, sum(r."inputTokens")::text AS input, sum(r."outputTokens")::text AS output,
           trim_scale(sum(r."costUsd"))::text AS cost
      FROM "UsageRecord" r
      LEFT OUTER JOIN "ProvenanceJudgement" j ON r.id = j."recordId"
     GROUP BY 1, 2, 3, 4, 5`;
  return rows.map(line).sort();
}

/** The same groups as the tally holds them: its rows (deltas and folded totals) summed. */
export async function keptByTally(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<Group[]>`
    SELECT dataset, class, provider, "modelId" AS model, to_char(day, 'YYYY-MM-DD') AS day, sum(samples)::text AS samples,
           sum("inputTokens")::text AS input, sum("outputTokens")::text AS output, trim_scale(sum("costUsd"))::text AS cost
      FROM "ProvenanceTally"
     GROUP BY 1, 2, 3, 4, 5
    HAVING sum(samples) <> 0 OR sum("inputTokens") <> 0 OR sum("outputTokens") <> 0 OR sum("costUsd") <> 0`;
  return rows.map(line).sort();
}

/**
 * The spend page's usage sums (by provider and model, by dataset, in all, per UTC day since
 * `from`), counted from the records themselves, dollars rounded to the cent by PostgreSQL (half away
 * from zero, as decimal.js rounds), one line each.
 */
export async function usageCountedFromRecords(db: Db, from: Date): Promise<{ providers: string[]; datasets: string[]; total: string; days: string[] }> {
  const providers = await db.$queryRaw<Array<{ provider: string | null; model: string | null; n: string; input: string; output: string; cost: string }>>`
    SELECT provider, "modelId" AS model, count(*)::text AS n, sum("inputTokens")::text AS input, sum("outputTokens")::text AS output, round(sum("costUsd"), 2)::text AS cost
      FROM "UsageRecord" GROUP BY 1, 2`;
  const datasets = await db.$queryRaw<Array<{ dataset: string; n: string; input: string; output: string; cost: string }>>`
    SELECT coalesce(dataset, '') AS dataset, count(*)::text AS n, sum("inputTokens")::text AS input, sum("outputTokens")::text AS output, round(sum("costUsd"), 2)::text AS cost
      FROM "UsageRecord" GROUP BY 1`;
  const [total] = await db.$queryRaw<Array<{ n: string; cost: string | null }>>`SELECT count(*)::text AS n, round(COALESCE(sum("costUsd"), 0), 2)::text AS cost FROM "UsageRecord"`;
  const days = await db.$queryRaw<Array<{ day: string; n: string; cost: string }>>`
    SELECT to_char(timezone('UTC', "occurredAt"), 'YYYY-MM-DD') AS day, count(*)::text AS n, round(sum("costUsd"), 2)::text AS cost
      FROM "UsageRecord" WHERE "occurredAt" >= ${from} GROUP BY 1`;
  return {
    providers: providers.map((r) => usageLine([r.provider ?? "(no provider)", r.model ?? "(no model)", r.n, r.input, r.output, r.cost])).sort(),
    datasets: datasets.map((r) => usageLine([r.dataset || "(none)", r.n, r.input, r.output, r.cost])).sort(),
    total: usageLine([total.n, total.cost]),
    days: days.map((r) => usageLine([r.day, r.n, r.cost])).sort(),
  };
}

/** One line of the usage sums above, from the fields in their order. */
export function usageLine(fields: Array<string | number | null>): string {
  return fields.map((f) => String(f)).join(" | ");
}
