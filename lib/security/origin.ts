// Refuses state-changing requests that a browser sends on behalf of another site (CSRF). Requests
// without Origin and Sec-Fetch-Site (curl, a cron job) are not from a browser page and pass; they
// still need whatever credentials the route asks for.

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface OriginVerdict {
  allowed: boolean;
  reason?: string;
}

export function checkSameOrigin(method: string, headers: Headers): OriginVerdict {
  if (SAFE_METHODS.has(method.toUpperCase())) return { allowed: true };
  const fetchSite = headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") {
    return { allowed: false, reason: `Sec-Fetch-Site is ${fetchSite}` };
  }
  const origin = headers.get("origin");
  if (origin === null) return { allowed: true };
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return { allowed: false, reason: `Origin ${JSON.stringify(origin)} is not a URL` };
  }
  const hosts = [headers.get("host"), headers.get("x-forwarded-host")]
    .filter((h): h is string => Boolean(h))
    .flatMap((h) => h.split(",").map((s) => s.trim().toLowerCase()));
  if (hosts.includes(originHost.toLowerCase())) return { allowed: true };
  return { allowed: false, reason: `Origin ${origin} does not match the host` };
}
