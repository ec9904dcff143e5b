import type { MiddlewareHandler } from "hono";
import { errorEnvelope, type ProtocolError, protocolError } from "../protocol/index.ts";

/** HTTP status of a request whose body is not declared `application/json`. */
export const UNSUPPORTED_MEDIA_TYPE_STATUS = 415;

/**
 * The refusal of a body that is not declared JSON: `usage`, reason `unsupported_media_type`, sent
 * with HTTP 415. Fixed text; it never echoes the header the client sent.
 */
export function unsupportedMediaTypeError(): ProtocolError {
  return protocolError(
    "usage",
    { reason: "unsupported_media_type" },
    "a request body must be sent with Content-Type: application/json",
  );
}

/**
 * Whether a `Content-Type` header value declares JSON: the media type `application/json` in any
 * letter case, optionally followed by parameters, where a `charset` parameter (if any) must name
 * UTF-8 (the only encoding the body reader accepts). `null` (no header) is not JSON.
 *
 * @example
 * declaresJson("application/json; charset=UTF-8") === true; declaresJson("text/plain") === false;
 */
export function declaresJson(value: string | null): boolean {
  if (value === null) return false;
  const [mediaType, ...parameters] = value.split(";");
  if (mediaType?.trim().toLowerCase() !== "application/json") return false;
  for (const parameter of parameters) {
    const equals = parameter.indexOf("=");
    if (equals < 0) continue;
    if (parameter.slice(0, equals).trim().toLowerCase() !== "charset") continue;
    const charset = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .toLowerCase();
    if (charset !== "utf-8" && charset !== "utf8") return false;
  }
  return true;
}

/**
 * The refusal of a body sent with a content coding (`Content-Encoding: gzip`, …): `usage`, reason
 * `unsupported_content_encoding`, sent with HTTP 415 and `Accept-Encoding: identity`. Fixed text;
 * it never echoes the header the client sent.
 */
export function unsupportedContentEncodingError(): ProtocolError {
  return protocolError(
    "usage",
    { reason: "unsupported_content_encoding" },
    "a request body must be sent without a Content-Encoding",
  );
}

/** HTTP status of a request body sent with a transfer coding besides `chunked` (RFC 9112 §6.1). */
export const UNSUPPORTED_TRANSFER_CODING_STATUS = 501;

/**
 * The refusal of a body sent with a transfer coding besides `chunked` (`Transfer-Encoding: gzip,
 * chunked`, …): `usage`, reason `unsupported_transfer_encoding`, sent with HTTP 501. Fixed text;
 * it never echoes the header the client sent.
 */
export function unsupportedTransferEncodingError(): ProtocolError {
  return protocolError(
    "usage",
    { reason: "unsupported_transfer_encoding" },
    "a request body must be sent with no Transfer-Encoding but chunked",
  );
}

/**
 * Whether `value` (a `Transfer-Encoding` header, `null` when absent) names no coding but
 * `chunked`. Node's parser undoes `chunked` alone: before it, `gzip`, `deflate` or any other
 * coding passes the parser undecoded, and repeated headers arrive joined by commas.
 */
function onlyChunked(value: string | null): boolean {
  return value === null || value.trim().toLowerCase() === "chunked";
}

/** Whether `value` (a `Content-Encoding` header, `null` when absent) names no coding but identity. */
function unencoded(value: string | null): boolean {
  const coding = value?.trim().toLowerCase() ?? "";
  return coding === "" || coding === "identity";
}

/** The path of a blob upload: `PUT /v1/teams/<team>/blobs/<digest>` (`message upload`). */
const BLOB_PATH = /^\/v1\/teams\/[^/]+\/blobs\/[^/]+$/;

/** Whether `request` is a blob upload, whose body is the blob's bytes, not JSON. */
function isBlobUpload(request: Request): boolean {
  return request.method === "PUT" && BLOB_PATH.test(new URL(request.url).pathname);
}

/** Whether a `Content-Type` header value is `application/octet-stream` (any case, no parameters needed). */
function declaresOctets(value: string | null): boolean {
  return value?.split(";")[0]?.trim().toLowerCase() === "application/octet-stream";
}

/**
 * The refusal of a blob upload whose body is not declared `application/octet-stream`: `usage`,
 * reason `unsupported_media_type`, HTTP 415. Fixed text.
 */
export function unsupportedOctetsError(): ProtocolError {
  return protocolError(
    "usage",
    { reason: "unsupported_media_type" },
    "a blob upload must be sent with Content-Type: application/octet-stream",
  );
}

/**
 * A `POST` to a dashboard path (docs/52-dashboard.md): a form from the dashboard's own pages,
 * which reads it as `application/x-www-form-urlencoded` only, behind a same-origin check and a
 * CSRF token, so the JSON rule's defence is replaced, not dropped.
 */
function isDashboardPost(request: Request): boolean {
  return request.method === "POST" && new URL(request.url).pathname.startsWith("/dashboard/");
}

/** Whether the request has a body on the wire: a non-zero `Content-Length`, or any `Transfer-Encoding`. */
function carriesBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  if (length !== null && length.trim() !== "0") return true;
  return request.headers.has("transfer-encoding");
}

/**
 * Middleware for every route: a `POST` (even with an empty body) and any request that carries a
 * body must declare `Content-Type: application/json` (a blob upload, `PUT
 * /v1/teams/<team>/blobs/<digest>`, `application/octet-stream` instead: a page cannot send a
 * `PUT` to another origin without a preflight either), else it is answered 415 before routing,
 * authentication, rate limits or any read of the body. A web page can send `text/plain`, form or
 * multipart bodies to a loopback server without a CORS preflight; it cannot send
 * `application/json` without one, so this rule keeps a page the user visits from minting
 * principals or acting with the user's server on its own. Such a request must also carry no
 * `Content-Encoding` but `identity` (415 `unsupported_content_encoding`): the body reader decodes
 * no coding, so a coded body would otherwise be read as the JSON it is not. For the same reason a
 * `Transfer-Encoding` other than `chunked` alone is answered 501 `unsupported_transfer_encoding`
 * (RFC 9112 §6.1: a transfer coding the server does not understand).
 */
export function requireJsonBodies(): MiddlewareHandler {
  return async (c, next) => {
    const request = c.req.raw;
    const octets = isBlobUpload(request);
    // The dashboard's form posts have their own rules (a form type, origin and CSRF checks).
    if (isDashboardPost(request)) {
      await next();
      return undefined;
    }
    const needsJson = !octets && (request.method === "POST" || carriesBody(request));
    if (octets && !declaresOctets(request.headers.get("content-type"))) {
      return c.json(errorEnvelope(unsupportedOctetsError()), UNSUPPORTED_MEDIA_TYPE_STATUS);
    }
    if ((needsJson || octets) && !unencoded(request.headers.get("content-encoding"))) {
      return c.json(
        errorEnvelope(unsupportedContentEncodingError()),
        UNSUPPORTED_MEDIA_TYPE_STATUS,
        { "accept-encoding": "identity" },
      );
    }
    if (needsJson && !declaresJson(request.headers.get("content-type"))) {
      return c.json(errorEnvelope(unsupportedMediaTypeError()), UNSUPPORTED_MEDIA_TYPE_STATUS);
    }
    if (!onlyChunked(request.headers.get("transfer-encoding"))) {
      return c.json(
        errorEnvelope(unsupportedTransferEncodingError()),
        UNSUPPORTED_TRANSFER_CODING_STATUS,
      );
    }
    await next();
    return undefined;
  };
}
