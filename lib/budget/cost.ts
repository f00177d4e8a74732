import Decimal from "decimal.js";
import { readBudgetAmount } from "./amount";

// What a workload costs at each included provider, exactly: decimal arithmetic on $/M prices,
// rounded to the cent only for display. How far a budget goes is walked in dataset order.

const MILLION = new Decimal(1_000_000);

export interface Dataset {
  name: string;
  inputTokens: number;
  outputTokens: number;
}

export interface PricedProviderInput {
  tag: string;
  provider: string;
  /** USD per million tokens as a decimal string ("0.45"), or null when OpenRouter gave none. */
  inputPricePerM: string | null;
  outputPricePerM: string | null;
}

export interface Coverage {
  /** Datasets the budget pays for completely, in order. */
  full: string[];
  /** The dataset the money runs out in, and the part of it paid for (floored to whole percent). */
  partial: { name: string; percent: number } | null;
  /** Share of the whole plan's cost the budget pays for, 0..1 (exact). */
  planFraction: Decimal;
  /** "covers B3–B6 fully and 30% of B7" */
  text: string;
}

export interface ProviderEstimate {
  tag: string;
  provider: string;
  inputPricePerM: string;
  outputPricePerM: string;
  total: Decimal;
  fits: boolean;
  /** budget − total: positive is left over, negative is the shortfall. */
  difference: Decimal;
  coverage: Coverage;
}

export interface BudgetEstimate {
  /** Priced providers, cheapest first (ties by name). */
  priced: ProviderEstimate[];
  /** Included providers without a usable price: listed, never counted as cheapest. */
  unpriced: Array<{ tag: string; provider: string }>;
  cheapest: ProviderEstimate | null;
  /** The most expensive included provider: what the plan costs if all traffic went there. */
  worstCase: ProviderEstimate | null;
  totals: { inputTokens: number; outputTokens: number };
}

/** input × $/M ÷ 1e6 + output × $/M ÷ 1e6, exact. */
export function costOf(inputTokens: number, outputTokens: number, inputPricePerM: Decimal.Value, outputPricePerM: Decimal.Value): Decimal {
  return new Decimal(inputTokens)
    .times(inputPricePerM)
    .plus(new Decimal(outputTokens).times(outputPricePerM))
    .div(MILLION);
}

/** Dollars to the cent, half up: "139.50". */
export function toCents(value: Decimal): string {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}

/** "$1,234.50"; negative amounts as "−$5.00". */
export function formatUsd(value: Decimal): string {
  const cents = toCents(value.abs());
  const [whole, fraction] = cents.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${value.isNegative() && !value.abs().lt(0.005) ? "−" : ""}$${grouped}.${fraction}`;
}

export function coverage(datasets: Dataset[], budget: Decimal, inputPricePerM: Decimal.Value, outputPricePerM: Decimal.Value): Coverage {
  const costs = datasets.map((d) => costOf(d.inputTokens, d.outputTokens, inputPricePerM, outputPricePerM));
  const planCost = costs.reduce((a, c) => a.plus(c), new Decimal(0));
  const full: string[] = [];
  let partial: Coverage["partial"] = null;
  let left = budget;
  for (let i = 0; i < datasets.length; i++) {
    if (costs[i].lte(left)) {
      full.push(datasets[i].name);
      left = left.minus(costs[i]);
      continue;
    }
    const percent = left.div(costs[i]).times(100).floor().toNumber();
    partial = { name: datasets[i].name, percent };
    break;
  }
  const planFraction = planCost.isZero() ? new Decimal(1) : Decimal.min(1, budget.div(planCost));
  return { full, partial, planFraction, text: coverageText(full, partial, datasets.length) };
}

function coverageText(full: string[], partial: Coverage["partial"], count: number): string {
  if (count === 0) return "no datasets in the plan";
  const fullPart =
    full.length === 0 ? "" : full.length === 1 ? `${full[0]} fully` : `${full[0]}–${full[full.length - 1]} fully`;
  if (!partial) return full.length === count && count > 1 ? `covers the whole plan (${fullPart.replace(" fully", "")})` : `covers ${fullPart}`;
  const partialPart = partial.percent === 0 ? `less than 1% of ${partial.name}` : `${partial.percent}% of ${partial.name}`;
  if (full.length === 0) return `covers ${partialPart}`;
  return `covers ${fullPart} and ${partialPart}`;
}

export function estimate(datasets: Dataset[], budget: Decimal, providers: PricedProviderInput[]): BudgetEstimate {
  const totals = {
    inputTokens: datasets.reduce((a, d) => a + d.inputTokens, 0),
    outputTokens: datasets.reduce((a, d) => a + d.outputTokens, 0),
  };
  const priced: ProviderEstimate[] = [];
  const unpriced: BudgetEstimate["unpriced"] = [];
  for (const p of providers) {
    if (!isPrice(p.inputPricePerM) || !isPrice(p.outputPricePerM)) {
      unpriced.push({ tag: p.tag, provider: p.provider });
      continue;
    }
    const total = costOf(totals.inputTokens, totals.outputTokens, p.inputPricePerM, p.outputPricePerM);
    priced.push({
      tag: p.tag,
      provider: p.provider,
      inputPricePerM: p.inputPricePerM,
      outputPricePerM: p.outputPricePerM,
      total,
      fits: total.lte(budget),
      difference: budget.minus(total),
      coverage: coverage(datasets, budget, p.inputPricePerM, p.outputPricePerM),
    });
  }
  priced.sort((a, b) => a.total.comparedTo(b.total) || a.provider.localeCompare(b.provider) || a.tag.localeCompare(b.tag));
  return {
    priced,
    unpriced,
    cheapest: priced[0] ?? null,
    worstCase: priced.length > 0 ? priced[priced.length - 1] : null,
    totals,
  };
}

function isPrice(value: string | null): value is string {
  return value !== null && /^\d+(\.\d+)?$/.test(value);
}

/** A budget amount typed by a person: "100", "250.5", "$1,000". Null when it is not one. */
export function parseBudget(input: string): Decimal | null {
  const read = readBudgetAmount(input);
  return read.ok ? read.amount : null;
}
