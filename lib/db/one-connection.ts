// A connection answers one query at a time. pg queues a query sent on a client while another runs,
// warns once that this is deprecated, and will refuse it from pg 9 (tests/helpers/one-query-at-a-time.ts
// fails the tests on that warning). Prisma itself keeps to one query at a time in an interactive
// transaction (its operations are queued, measured: two 0.5 s sleeps under Promise.all took 1.15 s,
// no warning), but not within one createMany, below.

/**
 * Rows per createMany. Prisma splits one with more bind parameters than PostgreSQL takes (32,767)
 * into several INSERTs and sends them at once on one connection (the caller's transaction's, or
 * one it opens for them): 2,000 rows keep a table of up to 16 columns in one statement.
 */
export const CREATE_MANY_ROWS = 2_000;

/** Writes rows in statements of CREATE_MANY_ROWS, one after another. */
export async function createInChunks<T>(rows: readonly T[], write: (chunk: T[]) => Promise<unknown>, size = CREATE_MANY_ROWS): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
}
