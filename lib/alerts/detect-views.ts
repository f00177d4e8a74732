import "server-only";
import type { DbOrTx } from "../db/engines";
import type { Prisma } from "../db/generated/client";
import { compare, readComparisonData } from "../queries/comparison";
import { writeAlertEvent } from "./outbox";
import { evaluateView, type ViewAlertState } from "./view-conditions";

// A reaction (lib/reactions/registry.ts) to a model's snapshot (lib/poller/store.ts, published
// after the poll is recorded, so the comparison reads the snapshot just written) and to a probe
// run's results (lib/probe/runner.ts), inside the transaction that writes them: every saved view
// of the model with alerts on is evaluated on the model's stored facts, its events go to the
// outbox and its state is updated, all committed with the snapshot or not at all.

export async function detectViewAlerts(tx: DbOrTx, modelId: string, observedAt: Date): Promise<number> {
  const views = await tx.savedView.findMany({
    where: { modelId, alert: { is: { enabled: true } } },
    include: { alert: true },
    orderBy: { id: "asc" },
  });
  if (views.length === 0) return 0;
  // The reads are plain queries: through the transaction they see the rows it has written.
  const data = await readComparisonData(tx, modelId);
  if (!data) return 0;
  let written = 0;
  for (const view of views) {
    const alert = view.alert;
    if (!alert) continue;
    const comparison = compare(data, new URLSearchParams(view.query));
    const { state, events } = evaluateView((alert.state as unknown as ViewAlertState | null) ?? null, comparison, alert, view);
    for (const event of events) {
      await writeAlertEvent(tx, {
        kind: event.kind,
        view: { id: view.id, slug: view.slug, name: view.name },
        modelId,
        summary: event.summary,
        data: event.data as Prisma.InputJsonValue,
        observedAt,
      });
    }
    written += events.length;
    await tx.viewAlert.update({ where: { viewId: view.id }, data: { state: state as unknown as Prisma.InputJsonValue } });
  }
  return written;
}
