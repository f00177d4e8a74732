import type { DbOrTx } from "./engines";

// A connection answers one query at a time. pg queues a query sent on a client while another runs,
// warns once that this is deprecated, and will refuse it from pg 9; a transaction holds one such
// client for all its queries (tests/helpers/one-query-at-a-time.ts fails the tests on that warning).

/** A transaction's client: Prisma leaves $connect (and $disconnect, $on, $extends) off it. */
export function isTransaction(db: DbOrTx): boolean {
  return typeof (db as { $connect?: unknown }).$connect !== "function";
}

/** Independent reads: together on the pool, one after another inside a transaction. */
export async function readTogether<T extends readonly unknown[] | []>(db: DbOrTx, reads: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  const thunks = reads as ReadonlyArray<() => Promise<unknown>>;
  if (!isTransaction(db)) return (await Promise.all(thunks.map((read) => read()))) as unknown as T;
  const out: unknown[] = [];
  for (const read of thunks) out.push(await read());
  return out as unknown as T;
}

/**
 * Rows per createMany. Prisma splits one with more bind parameters than PostgreSQL takes (32,767)
 * into several INSERTs and sends them at once, on one connection (in a transaction, the caller's):
 * 2,000 rows keep a table of up to 16 columns in one statement.
 */
export const CREATE_MANY_ROWS = 2_000;

/** Writes rows in statements of CREATE_MANY_ROWS, one after another. */
export async function createInChunks<T>(rows: readonly T[], write: (chunk: T[]) => Promise<unknown>, size = CREATE_MANY_ROWS): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}
