// The one shape of Routeboard's in-process jobs (the poll scheduler, the probe worker, the alert
// sender): a loop that runs a round of work on an interval, soon after it starts, and at once when
// woken. The work itself is claimed in the database with a lease (a model's poll, a probe run, a
// delivery), so any number of instances may run the same loop; this only paces one process.
//
// Rounds never overlap within a process: a wake (or a tick) during a round makes the loop go round
// once more when it ends, for what was written meanwhile. The loops are kept on globalThis, by
// name, so a dev hot reload reuses the running one instead of starting another.

export interface LoopOptions {
  /** One name per loop in a process ("poll scheduler"). */
  name: string;
  intervalMs: number;
  /** The first round, this long after the start (to resume what a previous process left). */
  firstDelayMs: number;
  /** One round of work; it claims what it works on. */
  round: () => Promise<void>;
  /** A round that threw: log it (the next tick, or a wake, tries again). */
  onError: (err: unknown) => void;
}

export interface Loop {
  readonly name: string;
  readonly intervalMs: number;
  readonly firstDelayMs: number;
  /** When the loop started (ms since the epoch). */
  readonly startedAt: number;
  /** Runs a round now, or once more after the one under way. */
  wake(): void;
  stop(): void;
}

interface LoopState {
  loop: Loop;
  busy: boolean;
  again: boolean;
}

const holder = globalThis as unknown as { __routeboardLoops?: Map<string, LoopState> };

function loops(): Map<string, LoopState> {
  holder.__routeboardLoops ??= new Map();
  return holder.__routeboardLoops;
}

/** Starts the loop, or returns the one of that name already running in this process. */
export function startLoop(options: LoopOptions): Loop {
  const running = loops().get(options.name);
  if (running) return running.loop;

  const tick = async (): Promise<void> => {
    if (state.busy) {
      state.again = true;
      return;
    }
    state.busy = true;
    try {
      do {
        state.again = false;
        try {
          await options.round();
        } catch (err) {
          options.onError(err);
        }
      } while (state.again);
    } finally {
      state.busy = false;
    }
  };

  const startedAt = Date.now();
  const first = setTimeout(() => void tick(), options.firstDelayMs);
  first.unref();
  const interval = setInterval(() => void tick(), options.intervalMs);
  interval.unref();
  const loop: Loop = {
    name: options.name,
    intervalMs: options.intervalMs,
    firstDelayMs: options.firstDelayMs,
    startedAt,
    wake: () => void tick(),
    stop: () => {
      clearTimeout(first);
      clearInterval(interval);
      if (loops().get(options.name)?.loop === loop) loops().delete(options.name);
    },
  };
  const state: LoopState = { loop, busy: false, again: false };
  loops().set(options.name, state);
  return loop;
}

/** The loop of that name running in this process, or null. */
export function runningLoop(name: string): Loop | null {
  return loops().get(name)?.loop ?? null;
}
