"use client";

import { useEffect, useRef, useState, type ComponentType } from "react";
import type { SpendChartProps } from "./spend-chart-props";
import { SpendSketch } from "./spend-sketch";

// The spend chart at the top of /spend: drawn first as plain SVG (spend-sketch.tsx), and replaced
// by the interactive recharts chart (spend-chart.tsx, with its tooltips) the first time a pointer
// comes over it. So recharts is not part of the page's first load; it is fetched on that gesture.

export function LazySpendChart(props: SpendChartProps) {
  const [Chart, setChart] = useState<ComponentType<SpendChartProps> | null>(null);
  const [loading, setLoading] = useState(false);
  const box = useRef<HTMLElement>(null);
  const [width, setWidth] = useState<number | undefined>(undefined);
  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry.contentRect.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const load = () => {
    if (Chart || loading) return;
    setLoading(true);
    void import("./spend-chart").then((m) => setChart(() => m.SpendChart), () => setLoading(false));
  };
  return (
    <figure
      ref={box}
      aria-label="Spend over time"
      aria-busy={loading && !Chart}
      data-interactive={Chart ? "true" : "false"}
      className="h-72 w-full"
      onPointerEnter={load}
      onTouchStart={load}
    >
      {Chart ? <Chart {...props} /> : <SpendSketch {...props} width={width} />}
    </figure>
  );
}
