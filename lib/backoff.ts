// The one backoff of every retry Routeboard makes: the OpenRouter client's calls, the probe
// runner's requests and the alert sender's deliveries.
//
// After n failed attempts the ceiling is base·2^(n−1), capped at capMs, and the wait is drawn
// uniformly from its upper half, [ceiling/2, ceiling] ("equal jitter"). Full jitter ([0, ceiling])
// spreads retries a little more, but can retry at once: a receiver that is down, or a provider
// that is overloaded, would get the next attempt immediately. Half the ceiling is always waited.
//
// A wait the server asked for (Retry-After, in ms) is honoured as it is: no jitter, no cap (the
// caller decides whether a long one is worth waiting for, as the OpenRouter client does).

export interface BackoffPolicy {
  /** The ceiling after the first failed attempt. */
  baseMs: number;
  /** No wait is longer than this. */
  capMs: number;
}

/** The wait before the next attempt after `failedAttempts` failed ones, in ms. */
export function backoffMs(failedAttempts: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, failedAttempts - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** The wait before the next attempt: the server's Retry-After when it sent one, else the backoff. */
export function retryDelayMs(
  failedAttempts: number,
  policy: BackoffPolicy,
  retryAfterMs?: number | null,
  random: () => number = Math.random,
): number {
  return retryAfterMs ?? backoffMs(failedAttempts, policy, random);
}
