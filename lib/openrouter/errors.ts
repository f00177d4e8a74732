export type OpenRouterErrorKind =
  | "network" // connection refused, reset, DNS
  | "timeout" // no complete answer within the timeout
  | "http" // a non-2xx status
  | "invalid_json" // the body is not JSON
  | "invalid_shape" // JSON, but not what the API documents
  | "empty"; // a valid answer with no endpoints in it

/** Every failure of the OpenRouter client, with how many attempts were made. */
export class OpenRouterError extends Error {
  constructor(
    readonly kind: OpenRouterErrorKind,
    message: string,
    readonly attempts: number,
    readonly status?: number,
    /** What a 429 or 503 asked us to wait (Retry-After), in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "OpenRouterError";
  }
}
