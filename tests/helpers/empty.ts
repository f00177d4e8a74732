// Stands in for the "server-only" package outside Next.js (vitest, scripts): it only guards
// against importing server modules into the browser bundle.
export {};
