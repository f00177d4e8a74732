import { parseAsString, parseAsStringLiteral } from "nuqs";
import { CHANGE_KINDS } from "../history/changes";

// The change log's filters in the link (`ck` kind, `cp` provider), so a teammate opening it sees
// the same filtered log. Apart from the comparison's parsers: they filter what is shown, not which
// providers the rules include, so saved views and the routing export never carry them.
export const changeLogParsers = {
  /** Only changes of this kind; absent: every kind. An unknown kind in a link reads as every kind. */
  ck: parseAsStringLiteral(CHANGE_KINDS),
  /** Only changes of this provider (its display name); absent: every provider. */
  cp: parseAsString,
};
