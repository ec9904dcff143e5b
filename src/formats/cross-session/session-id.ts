const SESSION_ID = /^[A-Za-z0-9_-]{1,80}$/;

/**
 * True iff `value` is a string usable as `from-session`: 1–80 characters of `[A-Za-z0-9_-]`.
 * Example: `isPeerSessionId("local_9f2c41aa")` is `true`, `isPeerSessionId("local 1")` is `false`.
 */
export function isPeerSessionId(value: unknown): value is string {
  return typeof value === "string" && SESSION_ID.test(value);
}
