"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { readBudgetAmount } from "@/lib/budget/amount";
import { getDb } from "@/lib/database";
import { clearMemo } from "@/lib/queries/memo";
import { saveBudget } from "@/lib/spend/budget";

export interface BudgetActionState {
  ok: boolean;
  message: string;
}

// The start time comes from <input type="datetime-local"> and is read as UTC, as the page shows it.
// The amount is read by the same rule as the calculator's (lib/budget/amount.ts), whose message
// says the real bounds.
const schema = z.object({
  amountUsd: z.string().transform((s, ctx) => {
    const read = readBudgetAmount(s);
    if (read.ok) return read.amount.toFixed(2);
    ctx.addIssue({ code: "custom", message: read.message });
    return z.NEVER;
  }),
  startAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, "Use a date and time")
    .transform((s) => new Date(`${s.length === 16 ? `${s}:00` : s}Z`))
    .refine((d) => !Number.isNaN(d.getTime()), "Use a valid date and time"),
});

/** Saves the budget in force (amount and start). Server actions are same-origin only. */
export async function saveBudgetAction(_prev: BudgetActionState | null, form: FormData): Promise<BudgetActionState> {
  const parsed = schema.safeParse({ amountUsd: form.get("amountUsd") ?? "", startAt: form.get("startAt") ?? "" });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path[0] === "amountUsd" ? "Budget" : "Start";
    return { ok: false, message: `${field}: ${issue.message}` };
  }
  const saved = await saveBudget(await getDb(), parsed.data);
  clearMemo(); // like every write: no shared read outlives it
  revalidatePath("/spend");
  return { ok: true, message: `Saved: $${saved.amountUsd} from ${saved.startAt.toISOString().slice(0, 16).replace("T", " ")} UTC.` };
}
