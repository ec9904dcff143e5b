/**
 * What the system said when a connection to a server failed, for a person's report: the first
 * string `code` on the error or its causes (`ECONNREFUSED`, `DEPTH_ZERO_SELF_SIGNED_CERT`, …), a
 * fixed token that never carries the address or the server's text.
 */

/**
 * A system code that says the server answered a TLS handshake with something that is not TLS:
 * most often a plain-http server (an `https://` address for `brigade serve` without `--tls-cert`).
 * Test it before {@link TLS_FAILURE_CODE}, which it also matches.
 */
export const PLAIN_HTTP_ANSWER_CODE: RegExp = /WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG/;

/** The fix for {@link PLAIN_HTTP_ANSWER_CODE}, one value-free sentence. */
export const PLAIN_HTTP_ANSWER_FIX =
  "the server does not speak TLS on that port (a plain-http brigade serve?): use its http:// address on this machine's loopback, or serve it over https (docs/50-operator.md)";

/** A system code that names a failed TLS handshake (an untrusted or mismatched certificate). */
export const TLS_FAILURE_CODE: RegExp =
  /CERT|SSL|TLS|EPROTO|UNABLE_TO|SELF_SIGNED|HOSTNAME|ALTNAME/;

/**
 * The first string `code` of `error` and up to three of its causes, or `undefined`. Only a code of
 * capital letters, digits and `_` is returned, so nothing a server wrote can pass through.
 *
 * @example systemErrorCode(new TypeError("fetch failed", { cause: refused })) === "ECONNREFUSED"
 */
export function systemErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === "string") return /^[A-Z][A-Z0-9_]{0,63}$/.test(code) ? code : undefined;
    current = current.cause;
  }
  return undefined;
}
