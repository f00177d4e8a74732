import { describe, expect, it } from "vitest";
import { fillBuckets } from "@/lib/history/buckets";
import type { Series } from "@/lib/history/series";
import { fromWire, toWire } from "@/lib/history/series-wire";

const from = new Date("2026-11-29T15:15:00.000Z");
const to = new Date("2026-11-30T15:15:00.000Z"); // 288 five-minute buckets
const at = (i: number) => new Date(from.getTime() + i * 300_000);

function series(): Series {
  return {
    metric: "outputPrice",
    range: "24h",
    bucket: "5m",
    bucketSeconds: 300,
    unit: "USD/M",
    aggregate: "last",
    from: from.toISOString(),
    to: to.toISOString(),
    endpoints: [
      {
        tag: "venice",
        provider: "Venice",
        points: fillBuckets(
          [
            { t: at(0), value: "3.75", min: "3.75", max: "3.75", polls: 1 },
            { t: at(200), value: "3.50", min: "3.25", max: "3.75", polls: 3 },
            { t: at(287), value: null, min: null, max: null, polls: 2 }, // polled, but no price listed
          ],
          from,
          to,
          300,
        ),
      },
      { tag: "empty", provider: "Empty", points: fillBuckets([], from, to, 300) },
    ],
  };
}

describe("the series API's wire form", () => {
  it("sends only the buckets with a poll, as [index, value, min, max, polls]", () => {
    const wire = toWire(series());
    expect(wire.endpoints[0].points).toEqual([
      [0, "3.75", "3.75", "3.75", 1],
      [200, "3.50", "3.25", "3.75", 3],
      [287, null, null, null, 2],
    ]);
    expect(wire.endpoints[1].points).toEqual([]);
    expect(JSON.stringify(wire).length).toBeLessThan(JSON.stringify(series()).length / 20);
  });
  it("is read back to the same series, every gap a gap (null, 0 polls), exact decimal strings kept", () => {
    const original = series();
    const read = fromWire(JSON.parse(JSON.stringify(toWire(original))));
    expect(read).toEqual(original);
    expect(read.endpoints[0].points).toHaveLength(288);
    expect(read.endpoints[0].points[1]).toEqual({ t: at(1).toISOString(), value: null, min: null, max: null, polls: 0 });
  });
});
