import { createHash, timingSafeEqual } from "node:crypto";

// HTTP Basic authentication for a single shared account (BASIC_AUTH=user:password). Pure, so the
// proxy and the tests use the same code.

export interface BasicCredentials {
  user: string;
  password: string;
}

/** "user:password" (the password may itself contain colons) to credentials. */
export function parseBasicAuthSetting(setting: string): BasicCredentials {
  const colon = setting.indexOf(":");
  if (colon <= 0 || colon === setting.length - 1) {
    throw new Error("BASIC_AUTH must look like user:password");
  }
  return { user: setting.slice(0, colon), password: setting.slice(colon + 1) };
}

/** True when an Authorization header carries exactly these credentials. Constant time. */
export function basicAuthMatches(header: string | null, expected: BasicCredentials): boolean {
  if (!header) return false;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return false;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  return secretEquals(decoded, `${expected.user}:${expected.password}`);
}

/** Compares two secrets in constant time (hashing first so lengths do not leak either). */
export function secretEquals(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** True when the header is "Bearer <secret>". */
export function bearerMatches(header: string | null, secret: string): boolean {
  if (!header) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match !== null && secretEquals(match[1], secret);
}
