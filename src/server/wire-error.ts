import {
  BapError,
  internalError,
  type ProtocolError,
  unavailableError,
} from "../protocol/index.ts";
import { StoreUnavailableError } from "../service/index.ts";

/**
 * The BAP/1 error a request failed with: a `BapError` as it is, a store that cannot reach its
 * database as `unavailable` (retryable: nothing was half written, and a send retried with its
 * idempotency key is answered once), anything else as `internal` (value-free).
 *
 * @example wireErrorOf(new StoreUnavailableError()).code === "unavailable";
 */
export function wireErrorOf(error: unknown): ProtocolError {
  if (error instanceof BapError) return error.toProtocolError();
  if (error instanceof StoreUnavailableError) return unavailableError();
  return internalError();
}
