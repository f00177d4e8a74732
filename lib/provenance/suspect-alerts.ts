import "server-only";
import Decimal from "decimal.js";
import { writeAlertEvent } from "../alerts/outbox";
import type { Db, DbOrTx } from "../db/engines";
import { exactUsd } from "../money";

// The view alert "trusted generations turned suspect" (issue 21). A re-judgement counts, per view,
// the generations whose stored class was `trusted` and whose new class under the same view is
// `suspect` (a later probe found their endpoint differs, say), and adds the counts to
// ProvenanceSuspectPending in the transaction that writes those judgements. When the pass ends it
// says them: one alert event per view whose alerts are on (with the condition on), and the row is
// removed either way. A pass that dies after some batches leaves its rows, and the next pass says
// them: no turn is lost, and none is said twice.

export interface TurnedSuspect {
  samples: number;
  inputTokens: Decimal;
  outputTokens: Decimal;
  costUsd: Decimal;
}

/** Adds one batch's turns (by view) to what is not said yet; call it in the batch's transaction. */
export async function addTurnedSuspect(tx: DbOrTx, turns: ReadonlyMap<number, TurnedSuspect>, at: Date): Promise<void> {
  const rows = [...turns].map(([v, t]) => ({ v, n: t.samples, i: t.inputTokens.toFixed(0), o: t.outputTokens.toFixed(0), c: t.costUsd.toFixed() }));
  if (rows.length === 0) return;
  await tx.$executeRaw`
    INSERT INTO "ProvenanceSuspectPending" ("viewId", samples, "inputTokens", "outputTokens", "costUsd", since)
    SELECT x.v, x.n, x.i::numeric, x.o::numeric, x.c::numeric, ${at}
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(v int, n int, i text, o text, c text)
      -- A view deleted since the pass began has no row to add to.
      WHERE EXISTS (SELECT 1 FROM "SavedView" WHERE id = x.v)
    ON CONFLICT ("viewId") DO UPDATE SET samples = "ProvenanceSuspectPending".samples + EXCLUDED.samples,
           "inputTokens" = "ProvenanceSuspectPending"."inputTokens" + EXCLUDED."inputTokens",
           "outputTokens" = "ProvenanceSuspectPending"."outputTokens" + EXCLUDED."outputTokens",
           "costUsd" = "ProvenanceSuspectPending"."costUsd" + EXCLUDED."costUsd"`;
}

/** Says every view's turns not said yet (an alert each, where its alerts are on); returns the events written. */
export async function sayTurnedSuspect(db: Db, observedAt: Date = new Date()): Promise<number> {
  return db.$transaction(async (tx) => {
    // Taken and removed in one statement: two passes that end together never say a row twice.
    const taken = await tx.$queryRaw<Array<{ view_id: number; samples: number; input_tokens: string; output_tokens: string; cost_usd: string; since: Date }>>`
      DELETE FROM "ProvenanceSuspectPending"
      RETURNING "viewId" AS view_id, samples, "inputTokens"::text AS input_tokens, "outputTokens"::text AS output_tokens, "costUsd"::text AS cost_usd, since`;
    let written = 0;
    for (const row of taken) {
      const view = await tx.savedView.findUnique({ where: { id: row.view_id }, include: { alert: true } });
      if (!view?.alert?.enabled || !view.alert.provenanceSuspect) continue;
      // Judged against the replica's snapshots (demo data): the alert says so, as the view's others do.
      const latest = await tx.modelPoll.findFirst({ where: { modelId: view.modelId, ok: true }, orderBy: { id: "desc" }, select: { demo: true } });
      const samples = row.samples.toLocaleString("en-US");
      const output = new Decimal(row.output_tokens).toNumber().toLocaleString("en-US");
      await writeAlertEvent(tx, {
        kind: "provenance",
        view: { id: view.id, slug: view.slug, name: view.name },
        modelId: view.modelId,
        summary: `${samples} generation${row.samples === 1 ? "" : "s"} judged trusted under “${view.name}” turned suspect (${output} output tokens, $${exactUsd(row.cost_usd)}): drop them from the training set`,
        data: {
          samples: row.samples,
          inputTokens: row.input_tokens,
          outputTokens: row.output_tokens,
          costUsd: exactUsd(row.cost_usd),
          since: row.since.toISOString(),
          old: "trusted",
          new: "suspect",
          export: "/api/provenance?class=suspect",
          ...(latest?.demo ? { demo: true } : {}),
        },
        observedAt,
      });
      written++;
    }
    return written;
  });
}
