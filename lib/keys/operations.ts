import "server-only";
import Decimal from "decimal.js";
import type { Db } from "../db/engines";
import type { ManagedKey, ManagementClient } from "../openrouter/management";
import { choosePipelineKey, describeLimit, describeLimitAndReset, recordKeyChange, recordKeyUsage } from "./records";

// The changes the dashboard makes to OpenRouter keys. Each one reads the key back from OpenRouter
// afterwards, so what the page shows is what OpenRouter enforces, and records who changed what.

export interface KeyChangeResult {
  before: ManagedKey;
  after: ManagedKey;
}

/** OpenRouter answered, but the key read back does not show the change. */
export class ChangeNotInPlaceError extends Error {}

/**
 * The key could not be read from OpenRouter before a change, so no change was sent. Every change
 * reads the key first: the page's figures may be a moment old (a shared render), and a control
 * that spends or stops money must not act on them.
 */
export class KeyNotReadError extends Error {
  constructor(cause: unknown) {
    super(`OpenRouter’s key API could not be read before the change (${(cause as Error).message}), so no change was sent`);
  }
}

/** The key as OpenRouter reports it now; a KeyNotReadError when it cannot be read. */
async function readFirst(client: ManagementClient, hash: string): Promise<ManagedKey> {
  try {
    return (await client.getKey(hash)).data;
  } catch (err) {
    throw new KeyNotReadError(err);
  }
}

function sameMoney(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return new Decimal(a).eq(b);
}

/**
 * Sets the key's limit to the budget with no reset (`limit_reset: null`: a daily, weekly or monthly
 * reset would let the key spend the budget again every window), then reads the key back and checks
 * both the limit and the reset are in place.
 */
export async function setKeyLimit(db: Db, client: ManagementClient, input: { hash: string; limitUsd: string | null; actor: string }): Promise<KeyChangeResult> {
  const before = await readFirst(client, input.hash);
  await client.updateKey(input.hash, { limit: input.limitUsd, limit_reset: null });
  const readBack = await client.getKey(input.hash);
  const after = readBack.data;
  await recordKeyChange(db, { actor: input.actor, keyHash: after.hash, keyName: after.name, action: "limit", before: describeLimitAndReset(before), after: describeLimitAndReset(after) });
  await recordKeyUsage(db, after, readBack.demo);
  if (!sameMoney(after.limit, input.limitUsd) || (after.limit_reset ?? null) !== null) {
    throw new ChangeNotInPlaceError(`OpenRouter accepted the change, but the key now shows ${describeLimitAndReset(after)} instead of ${describeLimit(input.limitUsd)} with no reset`);
  }
  return { before, after };
}

/** The emergency stop (disabled = true) and its undo. */
export async function setKeyDisabled(db: Db, client: ManagementClient, input: { hash: string; disabled: boolean; actor: string }): Promise<KeyChangeResult> {
  const before = await readFirst(client, input.hash);
  await client.updateKey(input.hash, { disabled: input.disabled });
  const readBack = await client.getKey(input.hash);
  const after = readBack.data;
  const state = (k: ManagedKey) => (k.disabled ? "disabled" : "enabled");
  await recordKeyChange(db, { actor: input.actor, keyHash: after.hash, keyName: after.name, action: "disabled", before: state(before), after: state(after) });
  await recordKeyUsage(db, after, readBack.demo);
  if (after.disabled !== input.disabled) {
    throw new ChangeNotInPlaceError(`OpenRouter accepted the change, but the key is still ${state(after)}`);
  }
  return { before, after };
}

/**
 * Creates a key for the pipeline with the budget as its limit and makes it the pipeline key. The
 * secret is returned to be shown once; it is not stored or logged anywhere.
 */
export async function createPipelineKey(db: Db, client: ManagementClient, input: { name: string; limitUsd: string; actor: string }): Promise<{ key: ManagedKey; secret: string }> {
  const created = await client.createKey({ name: input.name, limit: input.limitUsd });
  const { key, secret } = created.data;
  await recordKeyChange(db, { actor: input.actor, keyHash: key.hash, keyName: key.name, action: "created", before: null, after: `limit ${describeLimit(key.limit)}` });
  await choosePipelineKey(db, key, input.actor);
  await recordKeyUsage(db, key, created.demo);
  return { key, secret };
}
