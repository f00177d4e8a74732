import "server-only";
import { watchedModelsForView } from "./cached";

/**
 * Whether what this server shows comes from the local replica (demo data): any watched model's
 * latest snapshot does. For pages that show no snapshot of their own (alerts, notifications, not
 * found), so that they carry the same banner as the rest. A database that cannot be read says no:
 * the page itself says what failed.
 */
export async function showsDemoData(): Promise<boolean> {
  try {
    return (await watchedModelsForView()).some((m) => m.demo);
  } catch {
    return false;
  }
}
