import { createParser } from "nuqs/server";
import { withinBudgetBounds } from "../budget/bounds";
import type { Dataset } from "../budget/cost";
import { compactTokens, parseTokens } from "../budget/tokens";

// The cost calculator's URL state, parsed by the server and the client from this one definition
// so a shared link shows the same plan. A malformed value falls back to the default, and
// `ignoredBudgetKeys` says which key was ignored so the page can tell the user.
//
//   ?budget=250&ds=B3:1666667:10M,B4:1666667:10M,…   (name:input:output, rows in order)

export const MAX_DATASETS = 50;
export const DATASET_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._()+-]{0,39}$/;
const BUDGET = /^\d{1,10}(\.\d{1,2})?$/;

/** The seed's plan: B3–B8, 10M output each, 10M input in all (split so the sum is exact). */
export const DEFAULT_PLAN: Dataset[] = ["B3", "B4", "B5", "B6", "B7", "B8"].map((name, i) => ({
  name,
  inputTokens: i < 4 ? 1_666_667 : 1_666_666,
  outputTokens: 10_000_000,
}));

/** A budget in USD as a decimal string (never a float), up to 2 decimals, within the budget bounds. */
export const parseAsBudget = createParser<string>({
  parse: (value) => (BUDGET.test(value) && withinBudgetBounds(value) ? normaliseAmount(value) : null),
  serialize: (v) => v,
});

export const parseAsDatasets = createParser<Dataset[]>({
  parse(value) {
    const rows = value.split(",");
    if (rows.length === 0 || rows.length > MAX_DATASETS) return null;
    const datasets: Dataset[] = [];
    for (const row of rows) {
      const parts = row.split(":");
      if (parts.length !== 3) return null;
      const [name, input, output] = parts;
      if (!DATASET_NAME.test(name)) return null;
      const i = parseTokens(input);
      const o = parseTokens(output);
      if (!i.ok || !o.ok) return null;
      datasets.push({ name, inputTokens: i.tokens, outputTokens: o.tokens });
    }
    return datasets;
  },
  serialize: (datasets) =>
    datasets.map((d) => `${d.name}:${compactTokens(d.inputTokens)}:${compactTokens(d.outputTokens)}`).join(","),
  eq: (a, b) =>
    a.length === b.length &&
    a.every((d, i) => d.name === b[i].name && d.inputTokens === b[i].inputTokens && d.outputTokens === b[i].outputTokens),
});

export const budgetParsers = {
  /**
   * A what-if budget, USD. Absent, the calculator uses the stored budget (the spend page's); a
   * value here is the reader's own figure, kept in the link and labelled as a what-if.
   */
  budget: parseAsBudget,
  /** The workload, datasets in the order they are generated. */
  ds: parseAsDatasets.withDefault(DEFAULT_PLAN),
};

export type BudgetKey = keyof typeof budgetParsers;

/** The calculator's keys whose value is present in the URL but malformed (and so ignored). */
export function ignoredBudgetKeys(get: (key: BudgetKey) => string | null | undefined): BudgetKey[] {
  const ignored: BudgetKey[] = [];
  for (const key of Object.keys(budgetParsers) as BudgetKey[]) {
    const raw = get(key);
    if (raw !== null && raw !== undefined && budgetParsers[key].parse(raw) === null) ignored.push(key);
  }
  return ignored;
}

function normaliseAmount(value: string): string {
  return value.replace(/^0+(?=\d)/, "");
}
