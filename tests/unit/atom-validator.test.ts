import { describe, expect, it } from "vitest";
import { atomProblems, isRfc3339 } from "../helpers/atom-validator";

// The tests' RFC 4287 checker (tests/helpers/atom-validator.ts) must catch what it is there to
// catch: each broken feed below differs from a valid one by one rule.

const entry = (inner = "") => `<entry><id>urn:uuid:1</id><title>t</title><updated>2026-12-01T10:00:00Z</updated><link href="https://x.test/v"/>${inner}</entry>`;
const feed = ({ head = "", author = "<author><name>R</name></author>", entries = entry() } = {}) =>
  `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><id>https://x.test/f</id><title type="text">F</title>` +
  `<updated>2026-12-01T10:00:00.000Z</updated>${author}<link rel="self" href="https://x.test/f"/>${head}${entries}</feed>`;

describe("the tests' Atom (RFC 4287) checker", () => {
  it("accepts a valid feed, with the author on the feed or on every entry", () => {
    expect(atomProblems(feed())).toEqual([]);
    expect(atomProblems(feed({ author: "", entries: entry("<author><name>A</name></author>") }))).toEqual([]);
  });

  it("refuses each broken rule, naming it", () => {
    expect(atomProblems(feed({ author: "" }))).toEqual(["entry 1: no <author>, and the feed has none (4.1.2)"]);
    expect(atomProblems(feed({ entries: entry() + entry() }))).toEqual(["entry 2: id urn:uuid:1 repeats an earlier entry's (4.1.1)"]);
    expect(atomProblems(feed({ head: "<subtitle type=\"markdown\">s</subtitle>" }))).toEqual([
      'feed: <subtitle type="markdown">: a text construct\'s type is text, html or xhtml (3.1)',
    ]);
    expect(atomProblems(feed({ entries: entry("<summary><b>x</b></summary>") }))).toEqual(['entry 1: <summary type="text"> holds child elements; only xhtml may (3.1.1)']);
    expect(atomProblems(feed({ head: "<updated>2026-12-01 10:00</updated>" }))).toEqual([
      "feed: 2 <updated> elements, RFC 4287 requires exactly one",
      'feed: <updated> "2026-12-01 10:00" is not an RFC 3339 date-time (3.3)',
    ]);
    expect(atomProblems(feed({ entries: "<entry><id>relative</id><updated>2026-12-01T10:00:00Z</updated></entry>" }))).toEqual([
      "entry 1: 0 <title> elements, RFC 4287 requires exactly one",
      'entry 1: id "relative" is not an absolute IRI (4.2.6)',
      "entry 1: no content and no alternate link (4.1.1)",
    ]);
    expect(atomProblems(feed().replace('<link rel="self" href="https://x.test/f"/>', ""))).toEqual(['feed: 0 <link rel="self">, one expected (4.2.7.2)']);
    expect(atomProblems(feed({ head: "<author><uri>https://x.test</uri></author>" }))).toEqual(["feed: <author> needs exactly one non-empty <name> (3.2.1)"]);
    expect(atomProblems(feed().replace("http://www.w3.org/2005/Atom", "http://example.com/not-atom"))).toEqual(['feed: not in the Atom namespace (xmlns="http://example.com/not-atom")']);
    expect(atomProblems("<feed><title>unclosed</feed>")[0]).toMatch(/^not well-formed XML/);
  });

  it("reads RFC 3339 dates as written: T and Z upper-case, real calendar days", () => {
    expect(isRfc3339("2026-12-01T10:00:00Z")).toBe(true);
    expect(isRfc3339("2026-12-01T10:00:00.123+05:30")).toBe(true);
    expect(isRfc3339("2028-02-29T00:00:00Z")).toBe(true);
    expect(isRfc3339("2026-02-29T00:00:00Z")).toBe(false);
    expect(isRfc3339("2026-12-01t10:00:00z")).toBe(false);
    expect(isRfc3339("2026-13-01T10:00:00Z")).toBe(false);
    expect(isRfc3339("Tue, 01 Dec 2026 10:00:00 GMT")).toBe(false);
  });
});
