import type { MiddlewareHandler } from "hono";
import { errorEnvelope, type ProtocolError, protocolError } from "../protocol/index.ts";
import { httpStatusFor } from "./http-status.ts";
import type { Logger } from "./logger.ts";
import { operatorKeyMatches } from "./operator-key.ts";

/** The request header that carries the operator key to `POST /v1/teams` on a closed server. */
export const OPERATOR_KEY_HEADER = "x-brigade-operator-key";

/** Who may create teams: anyone with a principal, or only a caller presenting the operator key. */
export type RegistrationPolicy =
  | { readonly mode: "open" }
  | { readonly mode: "closed"; readonly operatorKeyDigest: string };

/**
 * The refusal of `team create` on a closed server without the right operator key: `unauthorized`,
 * reason `registration_closed`, one fixed text whether the key was missing or wrong.
 */
export function registrationClosedError(): ProtocolError {
  return protocolError(
    "unauthorized",
    { reason: "registration_closed" },
    "this server creates teams only for a caller presenting its operator key",
  );
}

/** Longest operator key header looked at (a key is 50 characters). */
const MAX_KEY_CHARS = 256;

/**
 * Whether `presented` (the {@link OPERATOR_KEY_HEADER} of a request, if any) is the operator key
 * whose digest is `digest`: bounded in length, then compared as a digest in constant time.
 */
export function presentsOperatorKey(presented: string | undefined, digest: string): boolean {
  return (
    presented !== undefined &&
    presented.length <= MAX_KEY_CHARS &&
    operatorKeyMatches(presented, digest)
  );
}

/**
 * Middleware for `POST /v1/teams`: on a closed server, the request must carry the operator key in
 * {@link OPERATOR_KEY_HEADER}, checked against the stored digest in constant time, before
 * authentication or any read of the body; else {@link registrationClosedError} (HTTP 403). Every
 * other route (joining with a secret included) is unaffected: a closed server stops strangers
 * from creating teams, not members from using them. Refusals are logged without any value.
 */
export function registrationGate(policy: RegistrationPolicy, logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    if (policy.mode === "closed" && c.req.method === "POST") {
      const presented = c.req.header(OPERATOR_KEY_HEADER);
      if (!presentsOperatorKey(presented, policy.operatorKeyDigest)) {
        logger.log("warn", "team_create_refused", { operator_key: presented !== undefined });
        const error = registrationClosedError();
        return c.json(errorEnvelope(error), httpStatusFor(error.code) as 403);
      }
    }
    await next();
    return undefined;
  };
}
