// Distinct line colours, assigned by an endpoint's position among all the model's endpoints so a
// provider keeps its colour across every chart of the section.
const COLORS = [
  "#4f46e5", "#059669", "#d97706", "#dc2626", "#0891b2", "#7c3aed",
  "#65a30d", "#db2777", "#475569", "#ea580c", "#0d9488", "#9333ea",
  "#2563eb", "#ca8a04", "#be123c", "#15803d",
];

export function colorFor(index: number): string {
  return COLORS[index % COLORS.length];
}
