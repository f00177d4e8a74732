import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";

// Webhook URLs are typed by users, so a delivery must not become a way to reach the server's own
// network (SSRF). Only http(s); the host is resolved when the message is sent, every address it
// resolves to is checked, and the connection goes to the address that was checked (the lookup
// below is the one the socket uses), so a DNS answer that changes between check and connect
// (rebinding) cannot slip through. ALLOW_PRIVATE_WEBHOOKS=true lifts the address check (tests, demo,
// a receiver on the same network on purpose).

export class RefusedAddressError extends Error {
  readonly code = "REFUSED_ADDRESS";
}

/** Why an address may not be called, or null when it is a public unicast address. */
export function refusalReason(address: string): string | null {
  const family = isIP(address);
  if (family === 4) return refusalReasonV4(address);
  if (family === 6) return refusalReasonV6(address);
  return "not an IP address";
}

function v4Number(address: string): number {
  return address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

const V4_RANGES: Array<[string, number, string]> = [
  ["0.0.0.0", 8, "unspecified"],
  ["127.0.0.0", 8, "loopback"],
  ["10.0.0.0", 8, "private"],
  ["172.16.0.0", 12, "private"],
  ["192.168.0.0", 16, "private"],
  ["100.64.0.0", 10, "shared (CGNAT)"],
  ["169.254.0.0", 16, "link-local"],
  ["192.0.0.0", 24, "IETF protocol assignments"],
  ["198.18.0.0", 15, "benchmarking"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

function refusalReasonV4(address: string): string | null {
  const n = v4Number(address);
  for (const [base, bits, label] of V4_RANGES) {
    const size = 2 ** (32 - bits);
    const start = v4Number(base);
    if (n >= start && n < start + size) return label;
  }
  return null;
}

/** The 8 groups of an IPv6 address as numbers (an embedded dotted IPv4 tail is expanded). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase().split("%")[0];
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const n = v4Number(dotted[1]);
    text = text.slice(0, -dotted[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const parse = (s: string | undefined) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  const t = parse(tail);
  return tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
}

function refusalReasonV6(address: string): string | null {
  const g = v6Groups(address);
  if (g.every((x) => x === 0)) return "unspecified";
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible / NAT64 forms carry an IPv4 address: judge that.
  const embedded = `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) return refusalReasonV4(embedded);
  if (g[0] === 0x64 && g[1] === 0xff9b) return refusalReasonV4(embedded);
  if ((g[0] & 0xfe00) === 0xfc00) return "unique-local";
  if ((g[0] & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0] & 0xffc0) === 0xfec0) return "site-local";
  if ((g[0] & 0xff00) === 0xff00) return "multicast";
  return null;
}

/** Throws RefusedAddressError unless the address may be called. */
export function checkAddress(address: string, allowPrivate: boolean): void {
  if (allowPrivate) return;
  const reason = refusalReason(address);
  if (reason) {
    throw new RefusedAddressError(`refused: the host resolves to ${address}, a ${reason} address (set ALLOW_PRIVATE_WEBHOOKS=true to allow it)`);
  }
}

/** Only http: and https: URLs, without user:password in them. A message naming the problem, or null. */
export function urlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be a full http(s) URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "must start with http:// or https://";
  if (url.username || url.password) return "must not contain a user name or password";
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request / net.connect: resolves every address of the host, refuses the lot
 * if any one of them is refused, and hands the socket only checked addresses.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number | string } | number, callback: LookupCallback): void => {
    const opts = typeof options === "number" ? { family: options } : options ?? {};
    const family = opts.family === "IPv4" ? 4 : opts.family === "IPv6" ? 6 : Number(opts.family ?? 0);
    dnsLookup(hostname, { all: true, family: family as 0 | 4 | 6 }, (err, addresses) => {
      if (err) return callback(err, opts.all ? [] : "", undefined);
      try {
        if (!addresses.length) throw new Error("the host has no address");
        for (const a of addresses) checkAddress(a.address, allowPrivate);
      } catch (refusal) {
        return callback(refusal as NodeJS.ErrnoException, opts.all ? [] : "", undefined);
      }
      if (opts.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** The check of a URL when a channel is saved: its scheme, and (unless allowed) where its host points now. */
export async function checkUrlReachable(raw: string, allowPrivate: boolean): Promise<string | null> {
  const problem = urlProblem(raw);
  if (problem) return problem;
  if (allowPrivate) return null;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) {
    const reason = refusalReason(host);
    return reason ? `points at a ${reason} address (${host}); set ALLOW_PRIVATE_WEBHOOKS=true to allow it` : null;
  }
  const addresses = await new Promise<LookupAddress[] | null>((resolve) =>
    dnsLookup(host, { all: true }, (err, found) => resolve(err ? null : found)),
  );
  if (!addresses?.length) return `its host ${host} cannot be resolved`;
  for (const { address } of addresses) {
    const reason = refusalReason(address);
    if (reason) return `its host resolves to a ${reason} address (${address}); set ALLOW_PRIVATE_WEBHOOKS=true to allow it`;
  }
  return null;
}
