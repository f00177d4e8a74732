/**
 * An error as one short line for a page or a health answer: its lines joined (Prisma's messages
 * start on a new line and spread over several) without any stack frame ("at …"), and any
 * connection string replaced, should a driver's message carry one (it may hold a password).
 */
export function errorLine(err: unknown, max: number): string {
  const message = err instanceof Error ? err.message : String(err);
  const lines = message
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !/^at\s/.test(line));
  return lines.join(" ").replace(/\s+/g, " ").replace(/postgres(ql)?:\/\/\S+/gi, "postgresql://…").slice(0, max);
}
