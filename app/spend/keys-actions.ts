"use server";

import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { actorFromHeaders } from "@/lib/keys/actor";
import { ChangeNotInPlaceError, createPipelineKey, KeyNotReadError, setKeyDisabled, setKeyLimit } from "@/lib/keys/operations";
import { choosePipelineKey, describeLimit, describeLimitAndReset } from "@/lib/keys/records";
import { managementClient, keyChangesRefusal } from "@/lib/openrouter/management-configured";
import type { ManagementClient } from "@/lib/openrouter/management";
import { clearMemo } from "@/lib/queries/memo";
import { currentBudget, DEFAULT_BUDGET_USD } from "@/lib/spend/budget";
import { formatUtc } from "@/lib/format";

// The spend page's key controls. Each refuses unless key changes are allowed on this server
// (BASIC_AUTH, or ALLOW_KEY_CHANGES_WITHOUT_AUTH on purpose); server actions are same-origin only.
// The new limit is always the budget stored on the server, never a figure sent by the browser.

export interface KeyActionState {
  ok: boolean;
  message: string;
  /** Only after creating a key: its secret, shown once and kept nowhere. */
  secret?: string;
}

const hashSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "not a key hash");

async function prepare(): Promise<{ client: ManagementClient; actor: string } | KeyActionState> {
  const refusal = keyChangesRefusal();
  if (refusal) return { ok: false, message: refusal };
  const client = managementClient();
  if (!client) return { ok: false, message: "No OPENROUTER_MANAGEMENT_KEY is configured." };
  return { client, actor: actorFromHeaders(await headers()) };
}

function done(): void {
  clearMemo();
  revalidatePath("/spend");
}

function failed(what: string, err: unknown): KeyActionState {
  if (err instanceof KeyNotReadError) return { ok: false, message: `${what} failed: ${err.message}. Nothing changed at OpenRouter or on the dashboard.` };
  return { ok: false, message: `${what} failed: ${(err as Error).message}. Nothing was changed on the dashboard.` };
}

async function budgetAmount(): Promise<string> {
  return (await currentBudget(await getDb()))?.amountUsd ?? DEFAULT_BUDGET_USD;
}

export async function choosePipelineKeyAction(_prev: KeyActionState | null, form: FormData): Promise<KeyActionState> {
  const ready = await prepare();
  if ("ok" in ready) return ready;
  const hash = hashSchema.safeParse(form.get("hash"));
  if (!hash.success) return { ok: false, message: "Pick a key from the list." };
  try {
    const key = (await ready.client.getKey(hash.data)).data;
    await choosePipelineKey(await getDb(), key, ready.actor);
    done();
    return { ok: true, message: `“${key.name}” is now the pipeline key.` };
  } catch (err) {
    return failed("Choosing the pipeline key", err);
  }
}

export async function enforceBudgetAction(_prev: KeyActionState | null, form: FormData): Promise<KeyActionState> {
  const ready = await prepare();
  if ("ok" in ready) return ready;
  const hash = hashSchema.safeParse(form.get("hash"));
  if (!hash.success) return { ok: false, message: "No pipeline key is chosen." };
  const budget = await budgetAmount();
  try {
    const { before, after } = await setKeyLimit(await getDb(), ready.client, { hash: hash.data, limitUsd: budget, actor: ready.actor });
    done();
    return {
      ok: true,
      message: `Limit in place: OpenRouter now reports ${describeLimitAndReset(after)}${before.limit_reset ? " with no reset" : ""} for “${after.name}” (was ${describeLimitAndReset(before)}), read back at ${formatUtc(new Date().toISOString())}.`,
    };
  } catch (err) {
    // A change that did not read back as asked is still recorded: show it. Any other failure
    // changed nothing, and a refresh would only take the message away with the controls.
    if (err instanceof ChangeNotInPlaceError) done();
    return failed("Setting the limit", err);
  }
}

export async function setKeyDisabledAction(_prev: KeyActionState | null, form: FormData): Promise<KeyActionState> {
  const ready = await prepare();
  if ("ok" in ready) return ready;
  const hash = hashSchema.safeParse(form.get("hash"));
  const disabled = z.enum(["true", "false"]).safeParse(form.get("disabled"));
  if (!hash.success || !disabled.success) return { ok: false, message: "No pipeline key is chosen." };
  try {
    const { after } = await setKeyDisabled(await getDb(), ready.client, { hash: hash.data, disabled: disabled.data === "true", actor: ready.actor });
    done();
    return {
      ok: true,
      message: after.disabled
        ? `Stopped: OpenRouter now refuses every request made with “${after.name}”.`
        : `Re-enabled: “${after.name}” can spend again, up to its limit of ${describeLimit(after.limit)}.`,
    };
  } catch (err) {
    return failed(disabled.data === "true" ? "The emergency stop" : "Re-enabling the key", err);
  }
}

const nameSchema = z.string().trim().min(1, "Give the key a name").max(60, "Keep the name under 60 characters");

export async function createPipelineKeyAction(_prev: KeyActionState | null, form: FormData): Promise<KeyActionState> {
  const ready = await prepare();
  if ("ok" in ready) return ready;
  const name = nameSchema.safeParse(form.get("name") ?? "");
  if (!name.success) return { ok: false, message: name.error.issues[0].message };
  const budget = await budgetAmount();
  try {
    const { key, secret } = await createPipelineKey(await getDb(), ready.client, { name: name.data, limitUsd: budget, actor: ready.actor });
    done();
    return { ok: true, message: `Created “${key.name}” with a limit of ${describeLimit(key.limit)}; it is now the pipeline key.`, secret };
  } catch (err) {
    return failed("Creating the key", err);
  }
}
