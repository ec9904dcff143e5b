import { errorEnvelope, type ProtocolError, protocolError } from "../protocol/index.ts";

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
