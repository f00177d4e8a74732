import type { Db } from "@/lib/db/engines";

// The judge of the provenance tally (migration 20261204081411_provenance_tally, read by
// lib/provenance/tally.ts), written apart from it: it counts the records and their judgements
// themselves, grouped the way the page groups them, and reads the tally's raw rows summed here.
// Both come back as one sorted line a group, so a difference shows as a readable diff.

function line(g: { dataset: string; class: string; provider: string | null; day: string | null; samples: string; input: string; output: string; cost: string }): string {
  return `${g.dataset || "(none)"} | ${g.class || "(not judged)"} | ${g.provider ?? "(no provider)"} | ${g.day ?? "(no time)"} | ${g.samples} samples | ${g.input} in | ${g.output} out | $${g.cost}`;
}

/** Every (dataset, class, provider, UTC day) group of the records as stored, counted from them. */
export async function countedFromRecords(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ dataset: string; class: string; provider: string | null; day: string | null; samples: string; input: string; output: string; cost: string }>>`
    SELECT coalesce(r.dataset, '') AS dataset, coalesce(j.class, '') AS class, r.provider,
           to_char(timezone('UTC', r."occurredAt"), 'YYYY-MM-DD') AS day,
           count(r.id)::text AS samples, sum(r."inputTokens")::text AS input, sum(r."outputTokens")::text AS output,
           trim_scale(sum(r."costUsd"))::text AS cost
      FROM "UsageRecord" r
      LEFT OUTER JOIN "ProvenanceJudgement" j ON r.id = j."recordId"
     GROUP BY 1, 2, 3, 4`;
  return rows.map(line).sort();
}

/** The same groups as the tally holds them: its rows (deltas and folded totals) summed. */
export async function keptByTally(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ dataset: string; class: string; provider: string | null; day: string | null; samples: string; input: string; output: string; cost: string }>>`
    SELECT dataset, class, provider, to_char(day, 'YYYY-MM-DD') AS day, sum(samples)::text AS samples,
           sum("inputTokens")::text AS input, sum("outputTokens")::text AS output, trim_scale(sum("costUsd"))::text AS cost
      FROM "ProvenanceTally"
     GROUP BY 1, 2, 3, 4
    HAVING sum(samples) <> 0 OR sum("inputTokens") <> 0 OR sum("outputTokens") <> 0 OR sum("costUsd") <> 0`;
  return rows.map(line).sort();
}
