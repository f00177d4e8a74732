import { describe, expect, it } from "vitest";
import { checkUrlReachable, guardedLookup, refusalReason, urlProblem } from "@/lib/alerts/address-guard";

describe("the webhook address guard", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.10", "private"],
    ["100.64.0.1", "shared (CGNAT)"],
    ["100.127.255.254", "shared (CGNAT)"],
    ["169.254.169.254", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.251", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fd12:3456::1", "unique-local"],
    ["fc00::1", "unique-local"],
    ["fe80::1%eth0", "link-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["64:ff9b::192.168.0.1", "private"],
  ])("refuses %s (%s)", (address, reason) => {
    expect(refusalReason(address)).toBe(reason);
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "192.169.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "2001:db9::1"])(
    "lets the public address %s through",
    (address) => {
      expect(refusalReason(address)).toBeNull();
    },
  );

  it("accepts only http(s) URLs without credentials", () => {
    expect(urlProblem("https://hooks.slack.com/services/T/B/x")).toBeNull();
    expect(urlProblem("http://example.com/hook")).toBeNull();
    expect(urlProblem("ftp://example.com/hook")).toBe("must start with http:// or https://");
    expect(urlProblem("file:///etc/passwd")).toBe("must start with http:// or https://");
    expect(urlProblem("https://user:pw@example.com/")).toBe("must not contain a user name or password");
    expect(urlProblem("not a url")).toBe("must be a full http(s) URL");
  });

  it("checks a URL's host when a channel is saved: addresses in the URL and names that resolve to them", async () => {
    expect(await checkUrlReachable("http://127.0.0.1:9/hook", false)).toMatch(/loopback address \(127\.0\.0\.1\).*ALLOW_PRIVATE_WEBHOOKS=true/);
    expect(await checkUrlReachable("http://[::1]:9/hook", false)).toMatch(/loopback/);
    expect(await checkUrlReachable("http://localhost:9/hook", false)).toMatch(/resolves to a loopback address/);
    expect(await checkUrlReachable("http://127.0.0.1:9/hook", true)).toBeNull();
  });

  it("refuses the connection when the name resolves to a refused address (the lookup the socket uses)", async () => {
    const lookup = guardedLookup(false);
    const err = await new Promise<Error | null>((resolve) => lookup("localhost", { all: true }, (e) => resolve(e)));
    expect(err?.message).toMatch(/refused: the host resolves to (127\.0\.0\.1|::1), a loopback address/);
    const allowed = await new Promise<unknown>((resolve) => guardedLookup(true)("localhost", {}, (e, address) => resolve(e ?? address)));
    expect(allowed).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});
