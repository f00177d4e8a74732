import "server-only";
import { getDb } from "../database";
import { env } from "../env";
import { sendDueDeliveries } from "../alerts/sender";
import { startLoop } from "./loop";

// The alert sender as the running app uses it: every few seconds (and at once when events were
// written: a poll, a "Send test") it sends whatever deliveries are due. Its state is all in the
// database, so a restart picks up where the last process stopped.

async function round(): Promise<void> {
  const sent = await sendDueDeliveries(await getDb(), { allowPrivate: env.ALLOW_PRIVATE_WEBHOOKS, baseUrl: env.PUBLIC_URL });
  if (sent.sent + sent.retrying + sent.failed > 0) {
    console.log(`[alerts] deliveries: ${sent.sent} sent, ${sent.retrying} to retry, ${sent.failed} failed`);
  }
}

function sender(intervalMs = 5_000) {
  return startLoop({
    name: "alert sender",
    intervalMs,
    firstDelayMs: 1_000, // what a previous process left, soon after start
    round,
    // Never the error's text: a driver error could quote a row, and rows hold URLs.
    onError: (err) => console.error(`[alerts] sender round failed (${(err as NodeJS.ErrnoException).code ?? (err as Error).name})`),
  });
}

export function startAlertSender(intervalMs = 5_000): boolean {
  sender(intervalMs);
  return true;
}

/** Sends new deliveries now rather than at the next tick. */
export function wakeAlertSender(): void {
  sender().wake();
}
