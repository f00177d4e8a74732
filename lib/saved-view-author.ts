// Who saved a view, kept apart from lib/saved-views.ts (zod, node:crypto) so client components
// can say it too.

/** Stored as the author when the server has no sign-in (BASIC_AUTH unset). */
export const ANONYMOUS = "anonymous";

/** Who saved a view, in words: the account, nobody signed in, or not recorded (older views). */
export function savedByText(createdBy: string | null): string {
  if (createdBy === null) return "an unknown user (saved before authors were recorded)";
  if (createdBy === ANONYMOUS) return "anonymous (no sign-in on this server)";
  return createdBy;
}
