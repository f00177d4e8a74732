export interface SpendChartProps {
  points: Array<{ at: string; spent: string }>;
  budgetUsd: string;
  projection: { from: { at: string; spent: string }; to: { at: string; spent: string } } | null;
}
