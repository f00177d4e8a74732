// Binomial tails for tests of error rates, written apart from the probe's statistics.

/** P(X ≥ k) for X ~ Binomial(n, p), summing the pmf in log space. */
export function binomialUpperTail(n: number, p: number, k: number): number {
  let logC = 0;
  let total = 0;
  for (let i = 0; i <= n; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    if (i >= k) total += Math.exp(logC + i * Math.log(p) + (n - i) * Math.log(1 - p));
  }
  return total;
}

/** The smallest k with P(X ≥ k) < level: a count of failures that a rate p reaches less often than `level`. */
export function upperThreshold(n: number, p: number, level: number): number {
  let k = 0;
  while (binomialUpperTail(n, p, k) >= level) k++;
  return k;
}

/** The largest k with P(X ≤ k) < level: a count of successes that a rate p falls to less often than `level`. */
export function lowerThreshold(n: number, p: number, level: number): number {
  // X ≤ k  ⇔  n − X ≥ n − k, and n − X ~ Binomial(n, 1 − p).
  return n - upperThreshold(n, 1 - p, level);
}
