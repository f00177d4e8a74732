import "server-only";
import { getDb } from "../db/client";
import { env } from "../env";
import { sendDueDeliveries } from "./sender";

// The alert sender as the running app uses it: every few seconds (and at once when events were
// written: a poll, a "Send test") it sends whatever deliveries are due. Its state is all in the
// database, so a restart picks up where the last process stopped.

const holder = globalThis as unknown as { __routeboardAlertSender?: { timer: NodeJS.Timeout; busy: boolean; again: boolean } };

async function tick(): Promise<void> {
  const worker = holder.__routeboardAlertSender;
  if (!worker) return;
  if (worker.busy) {
    worker.again = true; // woken mid-round: go round once more, for what was written meanwhile
    return;
  }
  worker.busy = true;
  try {
    do {
      worker.again = false;
      const round = await sendDueDeliveries(await getDb(), { allowPrivate: env.ALLOW_PRIVATE_WEBHOOKS, baseUrl: env.PUBLIC_URL });
      if (round.sent + round.retrying + round.failed > 0) {
        console.log(`[alerts] deliveries: ${round.sent} sent, ${round.retrying} to retry, ${round.failed} failed`);
      }
    } while (worker.again);
  } catch (err) {
    // Never the error's text: a driver error could quote a row, and rows hold URLs.
    console.error(`[alerts] sender round failed (${(err as NodeJS.ErrnoException).code ?? (err as Error).name})`);
  } finally {
    worker.busy = false;
  }
}

export function startAlertSender(intervalMs = 5_000): boolean {
  if (holder.__routeboardAlertSender) return true;
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  holder.__routeboardAlertSender = { timer, busy: false, again: false };
  setTimeout(() => void tick(), 1_000).unref(); // what a previous process left, soon after start
  return true;
}

/** Sends new deliveries now rather than at the next tick. */
export function wakeAlertSender(): void {
  if (!holder.__routeboardAlertSender) startAlertSender();
  void tick();
}
