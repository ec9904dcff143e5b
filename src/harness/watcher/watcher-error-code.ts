import { isBapError } from "../../protocol/index.ts";

/**
 * The stable code of a failed adapter call for the watcher's log: a BAP/1 error's `code`, else
 * `internal` (never the message of a foreign error, which may carry a value).
 *
 * @example errorCodeOf(new Error("x")) === "internal"
 */
export function errorCodeOf(error: unknown): string {
  return isBapError(error) ? error.code : "internal";
}
