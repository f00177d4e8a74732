"use server";

import { revalidatePath } from "next/cache";
import { pollNow } from "@/lib/jobs/poll";

export interface PollActionState {
  message: string;
  ok: boolean;
}

/** The "Poll now" button. Server actions are same-origin only, so this needs no CRON_SECRET. */
export async function pollNowAction(): Promise<PollActionState> {
  try {
    const result = await pollNow("manual");
    revalidatePath("/", "layout");
    const failed = result.models.filter((m) => !m.ok);
    if (failed.length === 0) return { ok: true, message: `Polled ${result.models.length} model(s).` };
    return { ok: false, message: failed.map((m) => `${m.id}: ${m.error}`).join("\n") };
  } catch (err) {
    return { ok: false, message: `The poll could not run: ${(err as Error).message}` };
  }
}
