import { afterEach, describe, expect, it } from "vitest";
import { runningLoop, startLoop, type Loop } from "@/lib/jobs/loop";

// The shape of the three in-process jobs: rounds on wake (the interval and the first round are an
// hour away here, so only wakes drive them), never two at once in a process.

const HOUR = 3_600_000;
const started: Loop[] = [];
afterEach(() => {
  for (const loop of started.splice(0)) loop.stop();
});

/** A round that waits until the test lets it finish, and says when each round starts and ends. */
function gatedRounds() {
  const events: string[] = [];
  const finish: Array<() => void> = [];
  const waiters: Array<{ event: string; resolve: () => void }> = [];
  let running = 0;
  let begun = 0;
  const record = (event: string) => {
    events.push(event);
    for (const w of waiters.filter((w) => w.event === event)) w.resolve();
  };
  const round = async () => {
    running++;
    const n = ++begun;
    record(`start ${n}${running > 1 ? " (overlapping)" : ""}`);
    await new Promise<void>((resolve) => finish.push(resolve));
    running--;
    record(`end ${n}`);
  };
  const seen = (event: string) => new Promise<void>((resolve) => (events.includes(event) ? resolve() : waiters.push({ event, resolve })));
  return { round, events, finish, seen };
}

describe("startLoop", () => {
  it("runs a round when woken, and a wake during a round makes exactly one more, after it", async () => {
    const gate = gatedRounds();
    const loop = startLoop({ name: "test: wake", intervalMs: HOUR, firstDelayMs: HOUR, round: gate.round, onError: () => undefined });
    started.push(loop);
    loop.wake();
    await gate.seen("start 1");
    loop.wake();
    loop.wake(); // two wakes during the round: one more round, not two
    gate.finish.shift()!();
    await gate.seen("start 2");
    gate.finish.shift()!();
    await gate.seen("end 2");
    loop.wake(); // woken when idle: a round at once
    await gate.seen("start 3");
    gate.finish.shift()!();
    await gate.seen("end 3");
    expect(gate.events).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]);
  });

  it("reports a round that throws, and runs the next one when woken", async () => {
    const errors: unknown[] = [];
    let rounds = 0;
    let secondRound!: () => void;
    const second = new Promise<void>((resolve) => (secondRound = resolve));
    const loop = startLoop({
      name: "test: errors",
      intervalMs: HOUR,
      firstDelayMs: HOUR,
      round: async () => {
        rounds++;
        if (rounds === 1) throw new Error("database away");
        secondRound();
      },
      onError: (err) => {
        errors.push(err);
        loop.wake();
      },
    });
    started.push(loop);
    loop.wake();
    await second;
    expect(rounds).toBe(2);
    expect(errors.map((e) => (e as Error).message)).toEqual(["database away"]);
  });

  it("is one loop per name in a process, until stopped", () => {
    const options = { name: "test: once", intervalMs: HOUR, firstDelayMs: HOUR, round: async () => undefined, onError: () => undefined };
    const loop = startLoop(options);
    started.push(loop);
    expect(startLoop({ ...options, intervalMs: 1_000 })).toBe(loop);
    expect(runningLoop("test: once")).toBe(loop);
    expect(loop.intervalMs).toBe(HOUR);
    loop.stop();
    expect(runningLoop("test: once")).toBeNull();
  });
});
