/**
 * Why `GET /v1/health` of `brigade serve` says its store cannot serve (docs/30-http-api.md,
 * "Health tells the truth about the store"). The reply is `{status: "ok", protocol_version,
 * store?}` with 200 while the store answers its probe, else 503 with `status` `"unavailable"` and
 * one of these as `reason`: `store_unreachable` (the probe failed: PostgreSQL refused or lost the
 * connection, or the SQLite file cannot be used) or `store_timeout` (no answer within the probe's
 * time). A fixed token, never an error's text or the store's address. The server sends them and
 * `brigade doctor` recognises them, both from this one list.
 *
 * @example
 * STORE_HEALTH_REASONS.includes("store_timeout") === true;
 */
export const STORE_HEALTH_REASONS = ["store_unreachable", "store_timeout"] as const;

/** One of {@link STORE_HEALTH_REASONS}. */
export type StoreHealthReason = (typeof STORE_HEALTH_REASONS)[number];

/**
 * True when `value` (read from an untrusted health reply) is one of
 * {@link STORE_HEALTH_REASONS}; anything else, of any type, is not. Never throws.
 *
 * @example
 * isStoreHealthReason("store_timeout") === true; isStoreHealthReason("store_x") === false;
 */
export function isStoreHealthReason(value: unknown): value is StoreHealthReason {
  return STORE_HEALTH_REASONS.some((reason) => reason === value);
}
