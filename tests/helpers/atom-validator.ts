import { xml2js, type Element } from "xml-js";

// A checker of RFC 4287 (The Atom Syndication Format), written from the RFC and sharing nothing
// with lib/alerts/feed.ts: the XML is parsed by xml-js (strict: malformed XML throws), then each
// rule below is checked on the tree. It answers the broken rules, each naming its section; an
// empty list is a valid feed. Covered: the elements a feed and an entry must have exactly once and
// may have at most once (4.1.1, 4.1.2), the author rule (4.1.1, 4.1.2), unique entry ids and
// absolute IRIs (4.2.6), RFC 3339 dates (3.3), text constructs' type (3.1) and content's (4.1.3),
// person constructs (3.2), links (4.2.7: href, and rel="self" on the feed as 4.2.7.2 advises),
// categories (4.2.2), and alternate links unique per type and hreflang (4.1.1).

export const ATOM_NS = "http://www.w3.org/2005/Atom";
const XHTML_NS = "http://www.w3.org/1999/xhtml";

export interface ParsedFeed {
  feed: Element;
  entries: Element[];
}

export const children = (el: Element, name?: string): Element[] =>
  (el.elements ?? []).filter((e) => e.type === "element" && (name === undefined || e.name === name));
export const child = (el: Element, name: string): Element | undefined => children(el, name)[0];
/** An element's character content, entities decoded (text and CDATA alike). */
export const textOf = (el: Element | undefined): string =>
  (el?.elements ?? []).map((e) => (e.type === "text" ? String(e.text ?? "") : e.type === "cdata" ? String(e.cdata ?? "") : "")).join("");
const attr = (el: Element, name: string): string | undefined => {
  const v = el.attributes?.[name];
  return v === undefined ? undefined : String(v);
};

export function parseAtom(xml: string): ParsedFeed {
  const doc = xml2js(xml, { compact: false, captureSpacesBetweenElements: false }) as Element;
  const roots = children(doc);
  if (roots.length !== 1 || roots[0].name !== "feed") throw new Error(`the document's root is not one <feed> (${roots.map((r) => r.name).join(", ")})`);
  return { feed: roots[0], entries: children(roots[0], "entry") };
}

/** RFC 3339 date-time with Atom's upper-case T and Z (3.3), and a real calendar date and time. */
export function isRfc3339(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (days === undefined || day < 1 || day > days) return false;
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (m[8] !== "Z" && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  return true;
}

/** An absolute IRI: a scheme, a colon and something after it (RFC 3987's shape, loosely). */
const isAbsoluteIri = (value: string) => /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(value.trim()) && !/[\s<>"{}|\\^`]/.test(value.trim());

export function atomProblems(xml: string): string[] {
  const problems: string[] = [];
  let parsed: ParsedFeed;
  try {
    parsed = parseAtom(xml);
  } catch (err) {
    return [`not well-formed XML or no feed: ${(err as Error).message.split("\n")[0]}`];
  }
  const { feed, entries } = parsed;
  if (attr(feed, "xmlns") !== ATOM_NS) problems.push(`feed: not in the Atom namespace (xmlns="${attr(feed, "xmlns")}")`);

  const exactlyOne = (el: Element, where: string, names: string[]) => {
    for (const name of names) {
      const n = children(el, name).length;
      if (n !== 1) problems.push(`${where}: ${n} <${name}> elements, RFC 4287 requires exactly one`);
    }
  };
  const atMostOne = (el: Element, where: string, names: string[]) => {
    for (const name of names) {
      const n = children(el, name).length;
      if (n > 1) problems.push(`${where}: ${n} <${name}> elements, at most one allowed`);
    }
  };
  const checkId = (el: Element, where: string) => {
    const id = child(el, "id");
    if (id && !isAbsoluteIri(textOf(id))) problems.push(`${where}: id "${textOf(id)}" is not an absolute IRI (4.2.6)`);
  };
  const checkDates = (el: Element, where: string) => {
    for (const name of ["updated", "published"]) {
      for (const d of children(el, name)) if (!isRfc3339(textOf(d))) problems.push(`${where}: <${name}> "${textOf(d)}" is not an RFC 3339 date-time (3.3)`);
    }
  };
  const checkText = (el: Element, where: string, names: string[]) => {
    for (const name of names) {
      for (const t of children(el, name)) {
        const type = attr(t, "type") ?? "text";
        if (!["text", "html", "xhtml"].includes(type)) problems.push(`${where}: <${name} type="${type}">: a text construct's type is text, html or xhtml (3.1)`);
        if (type !== "xhtml" && children(t).length) problems.push(`${where}: <${name} type="${type}"> holds child elements; only xhtml may (3.1.1)`);
        if (type === "xhtml") {
          const divs = children(t);
          if (divs.length !== 1 || divs[0].name !== "div" || attr(divs[0], "xmlns") !== XHTML_NS) problems.push(`${where}: <${name} type="xhtml"> must hold one XHTML div (3.1.1.3)`);
        }
      }
    }
  };
  const checkPeople = (el: Element, where: string) => {
    for (const name of ["author", "contributor"]) {
      for (const p of children(el, name)) {
        if (children(p, "name").length !== 1 || !textOf(child(p, "name")).trim()) problems.push(`${where}: <${name}> needs exactly one non-empty <name> (3.2.1)`);
        atMostOne(p, `${where} <${name}>`, ["uri", "email"]);
      }
    }
  };
  const checkLinks = (el: Element, where: string) => {
    const alternates = new Set<string>();
    for (const link of children(el, "link")) {
      const href = attr(link, "href");
      if (!href) problems.push(`${where}: <link> without href (4.2.7.1)`);
      else if (!isAbsoluteIri(href)) problems.push(`${where}: <link href="${href}"> is not an absolute IRI`);
      const rel = attr(link, "rel") ?? "alternate";
      if (rel === "alternate") {
        const key = `${attr(link, "type") ?? ""}|${attr(link, "hreflang") ?? ""}`;
        if (alternates.has(key)) problems.push(`${where}: two rel="alternate" links with the same type and hreflang (4.1.1)`);
        alternates.add(key);
      }
    }
  };
  const checkCategories = (el: Element, where: string) => {
    for (const c of children(el, "category")) if (!attr(c, "term")) problems.push(`${where}: <category> without term (4.2.2.1)`);
  };

  exactlyOne(feed, "feed", ["id", "title", "updated"]);
  atMostOne(feed, "feed", ["subtitle", "rights", "icon", "logo", "generator"]);
  checkId(feed, "feed");
  checkDates(feed, "feed");
  checkText(feed, "feed", ["title", "subtitle", "rights"]);
  checkPeople(feed, "feed");
  checkLinks(feed, "feed");
  checkCategories(feed, "feed");
  const self = children(feed, "link").filter((l) => attr(l, "rel") === "self");
  if (self.length !== 1) problems.push(`feed: ${self.length} <link rel="self">, one expected (4.2.7.2)`);

  const feedHasAuthor = children(feed, "author").length > 0;
  const ids = new Set<string>();
  entries.forEach((entry, i) => {
    const where = `entry ${i + 1}`;
    exactlyOne(entry, where, ["id", "title", "updated"]);
    atMostOne(entry, where, ["summary", "content", "published", "rights", "source"]);
    checkId(entry, where);
    checkDates(entry, where);
    checkText(entry, where, ["title", "summary", "rights"]);
    checkPeople(entry, where);
    checkLinks(entry, where);
    checkCategories(entry, where);
    const id = textOf(child(entry, "id"));
    if (ids.has(id)) problems.push(`${where}: id ${id} repeats an earlier entry's (4.1.1)`);
    ids.add(id);
    const source = child(entry, "source");
    if (!feedHasAuthor && children(entry, "author").length === 0 && !(source && children(source, "author").length)) {
      problems.push(`${where}: no <author>, and the feed has none (4.1.2)`);
    }
    const content = child(entry, "content");
    const links = children(entry, "link");
    if (!content && !links.some((l) => (attr(l, "rel") ?? "alternate") === "alternate")) problems.push(`${where}: no content and no alternate link (4.1.1)`);
    if (content) {
      const type = attr(content, "type") ?? "text";
      const known = ["text", "html", "xhtml"].includes(type);
      if (!known && !/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/i.test(type)) problems.push(`${where}: <content type="${type}"> is neither text, html, xhtml nor a media type (4.1.3.1)`);
      if (known && type !== "xhtml" && children(content).length) problems.push(`${where}: <content type="${type}"> holds child elements (4.1.3.3)`);
      if ((attr(content, "src") || (!known && !/\+xml$|\/xml$|^text\//i.test(type))) && !child(entry, "summary")) {
        problems.push(`${where}: content by reference or in base64 needs a <summary> (4.1.1.2)`);
      }
    }
  });
  return problems;
}

/** Every element name in the tree (to show that no markup hides in the text). */
export function elementNames(el: Element): string[] {
  return children(el).flatMap((c) => [c.name ?? "", ...elementNames(c)]);
}
