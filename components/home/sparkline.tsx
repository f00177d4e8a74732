// A day of changes at a glance: one bar per hour, drawn as inline SVG on the server (no chart
// library reaches the home page's bundle). An hour without a change is a faint tick, so a quiet
// day still reads as a day.

interface Props {
  perHour: readonly number[];
  /** What the bars count, for the accessible name ("changes"). */
  label: string;
}

const WIDTH = 144;
const HEIGHT = 32;

export function Sparkline({ perHour, label }: Props) {
  const max = Math.max(1, ...perHour);
  const total = perHour.reduce((a, n) => a + n, 0);
  const slot = WIDTH / perHour.length;
  const bar = Math.max(2, slot - 2);
  const busiest = perHour.reduce((best, n, i) => (n > perHour[best] ? i : best), 0);
  const name =
    total === 0
      ? `No ${label} in the last ${perHour.length} hours`
      : `${total} ${label} in the last ${perHour.length} hours, most (${perHour[busiest]}) ${perHour.length - busiest === 1 ? "in the last hour" : `${perHour.length - busiest} hours ago`}`;
  return (
    <svg
      role="img"
      aria-label={name}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      className="block shrink-0 overflow-visible"
    >
      <title>{name}</title>
      <line x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className="stroke-slate-200" strokeWidth={1} />
      {perHour.map((n, i) => {
        const h = n === 0 ? 2 : Math.max(4, Math.round((n / max) * (HEIGHT - 2)));
        return (
          <rect
            key={i}
            x={i * slot + (slot - bar) / 2}
            y={HEIGHT - h}
            width={bar}
            height={h}
            rx={1}
            className={n === 0 ? "fill-slate-200" : "fill-indigo-500"}
          />
        );
      })}
    </svg>
  );
}
