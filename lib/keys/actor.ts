import "server-only";

/**
 * Who made a change: the Basic-auth user name (the proxy has already checked the password), or a
 * plain statement that nobody signed in when ALLOW_KEY_CHANGES_WITHOUT_AUTH let the change through.
 */
export function actorFromHeaders(headers: Headers): string {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(headers.get("authorization") ?? "");
  if (match) {
    const decoded = Buffer.from(match[1], "base64").toString("utf8");
    const user = decoded.slice(0, Math.max(0, decoded.indexOf(":")));
    if (user) return user.slice(0, 100);
  }
  return "unauthenticated (ALLOW_KEY_CHANGES_WITHOUT_AUTH)";
}
