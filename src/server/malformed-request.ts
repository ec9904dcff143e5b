import {
  errorEnvelope,
  internalError,
  type ProtocolError,
  protocolError,
} from "../protocol/index.ts";

/**
 * The refusal of a request no URL can be made of (a `Host` header that is no host, a backslash in
 * the path, an absolute target of another scheme): `usage`, reason `malformed_request`, HTTP 400.
 * Such a request never reaches the app's routes; the listener answers it with this envelope
 * instead of an empty 400. Fixed text: it never echoes the request.
 */
export function malformedRequestError(): ProtocolError {
  return protocolError(
    "usage",
    { reason: "malformed_request" },
    "the request line or its Host header is malformed",
  );
}

/** {@link malformedRequestError} as the HTTP 400 response the listener sends. */
export function malformedRequestResponse(): Response {
  return Response.json(errorEnvelope(malformedRequestError()), { status: 400 });
}

/**
 * The listener's answer to an error that escaped the app: a request no URL can be made of
 * (`@hono/node-server` names it `RequestError`) is the client's fault, 400 `malformed_request`;
 * anything else is the server's, 500 `internal` with no text, so a fault is never blamed on the
 * client. The app's own error handler answers every error its routes throw, so the second case is
 * a last resort.
 */
export function listenerErrorResponse(error: unknown): Response {
  if (error instanceof Error && error.name === "RequestError") return malformedRequestResponse();
  return Response.json(errorEnvelope(internalError()), { status: 500 });
}
