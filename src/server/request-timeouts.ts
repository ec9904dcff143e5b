/**
 * How long a client may take to send one request, ms **[ours]** (docs/30-http-api.md, "Slow
 * clients"). Node's defaults let a request head take 60 s and its body 300 s, so a client that
 * starts a request and never finishes it holds a connection and its memory for five minutes; a
 * legitimate request here is at most 1 MiB and arrives in well under a second. A watch is not
 * affected: its request (a GET head) is complete at once, and only the answer streams.
 */
export interface RequestTimeouts {
  /** The whole request, head and body (`server.requestTimeout`); a late one is answered 408. */
  readonly requestMs: number;
  /** The request head (`server.headersTimeout`); at most `requestMs`. */
  readonly headersMs: number;
  /** How often Node looks for requests past these limits (`connectionsCheckingInterval`). */
  readonly checkEveryMs: number;
}

/** `brigade serve`'s limits: 30 s for a request, 20 s for its head, checked every 5 s. */
export const DEFAULT_REQUEST_TIMEOUTS: Readonly<RequestTimeouts> = Object.freeze({
  requestMs: 30_000,
  headersMs: 20_000,
  checkEveryMs: 5_000,
});

/**
 * The `node:http` / `node:https` server options that enforce `timeouts`.
 *
 * @example createServer(httpServerTimeouts(DEFAULT_REQUEST_TIMEOUTS), listener);
 */
export function httpServerTimeouts(timeouts: RequestTimeouts): {
  requestTimeout: number;
  headersTimeout: number;
  connectionsCheckingInterval: number;
} {
  return {
    requestTimeout: timeouts.requestMs,
    headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
    connectionsCheckingInterval: timeouts.checkEveryMs,
  };
}
