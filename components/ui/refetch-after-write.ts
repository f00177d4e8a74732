import type { QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * Refetches what a write changed, from after the write. `invalidateQueries` alone joins a first fetch
 * still in flight (TanStack Query cancels an in-flight fetch only once the query has data), and that
 * fetch may have been answered from before the write: the page would then miss it until the next
 * refetch. Cancelling first makes the refetch a request of its own.
 */
export async function refetchAfterWrite(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  await queryClient.cancelQueries({ queryKey });
  await queryClient.invalidateQueries({ queryKey });
}
