import { createHash, timingSafeEqual } from "node:crypto";

/**
 * The session cookie's name: `__Host-` under TLS (the browser then takes it only over HTTPS, for
 * this host alone, on every path), a plain name without TLS, where a `__Host-` cookie must be
 * `Secure` and so would never be sent over `http://` loopback.
 */
export function sessionCookieName(tls: boolean): string {
  return tls ? "__Host-brigade_dashboard" : "brigade_dashboard";
}

/**
 * The `Set-Cookie` value that opens a browser session: `HttpOnly` (no script reads it),
 * `SameSite=Strict` (no other site's page makes the browser send it), `Path=/`, `Max-Age` in
 * seconds, and `Secure` under TLS.
 *
 * @example sessionCookie("abc", 60, false) // "brigade_dashboard=abc; Path=/; Max-Age=60; HttpOnly; SameSite=Strict"
 */
export function sessionCookie(secret: string, maxAgeSeconds: number, tls: boolean): string {
  const secure = tls ? "; Secure" : "";
  return `${sessionCookieName(tls)}=${secret}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

/** The `Set-Cookie` value that removes the session cookie (sign-out, a dead session). */
export function clearedSessionCookie(tls: boolean): string {
  const secure = tls ? "; Secure" : "";
  return `${sessionCookieName(tls)}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${secure}`;
}

/**
 * The session cookie's secret in a `Cookie` header, or `null` when there is none of our shape
 * (43 base64url characters). Only the cookie of `tls`'s name counts.
 */
export function sessionSecretOf(cookieHeader: string | undefined, tls: boolean): string | null {
  if (cookieHeader === undefined || cookieHeader.length > 8192) return null;
  const name = sessionCookieName(tls);
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
  }
  return null;
}

/**
 * The CSRF token of a browser session: a digest of its cookie's secret under a label of its own,
 * so the page can carry it (it is in every form) without carrying the cookie, and no store row is
 * needed: every server process derives the same token from the cookie the request brings.
 */
export function csrfToken(sessionSecret: string): string {
  return createHash("sha256")
    .update(`brigade-dashboard-csrf\n${sessionSecret}`)
    .digest("base64url");
}

/** Whether `offered` is the CSRF token of `sessionSecret`, compared in constant time. */
export function csrfMatches(sessionSecret: string, offered: string | undefined): boolean {
  if (offered === undefined) return false;
  const expected = Buffer.from(csrfToken(sessionSecret));
  const given = Buffer.from(offered);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Whether a state-changing request comes from the dashboard's own pages: its `Origin` is this
 * server's origin (scheme, host and port of the request URL: `forwardedProto` overrides the
 * scheme behind a TLS-terminating proxy the operator trusts), or, from a browser that sends no
 * `Origin`, its `Sec-Fetch-Site` says `same-origin`. A request with neither is refused: every
 * browser the dashboard supports sends one of them on a form post.
 */
export function sameOrigin(request: Request, forwardedProto?: string): boolean {
  const url = new URL(request.url);
  const scheme = forwardedProto === undefined ? url.protocol : `${forwardedProto}:`;
  const origin = request.headers.get("origin");
  if (origin !== null) return origin === `${scheme}//${url.host}`;
  return request.headers.get("sec-fetch-site") === "same-origin";
}

/**
 * The Content-Security-Policy of every dashboard page: nothing but this server's own script,
 * style and images; no inline script or style (no `unsafe-inline`), no framing, forms only to
 * this server, no `<base>`.
 */
export const DASHBOARD_CSP: string =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The headers of every dashboard answer: the CSP and the rest of the browser hardening. */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": DASHBOARD_CSP,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
});

/** Most bytes of a dashboard form post. */
export const DASHBOARD_FORM_MAX_BYTES: number = 16 * 1024;

/**
 * The fields of a dashboard form post (`application/x-www-form-urlencoded`, at most
 * {@link DASHBOARD_FORM_MAX_BYTES}, no content coding), or `null` when the request is not one.
 * A field given twice counts as its first occurrence.
 */
export async function readForm(request: Request): Promise<Map<string, string> | null> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return null;
  const coding = request.headers.get("content-encoding");
  if (coding !== null && coding.trim().toLowerCase() !== "identity") return null;
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader !== undefined) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > DASHBOARD_FORM_MAX_BYTES) {
        await reader.cancel();
        return null;
      }
      chunks.push(value);
    }
  }
  const text = new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
  const fields = new Map<string, string>();
  for (const [key, value] of new URLSearchParams(text)) {
    if (!fields.has(key)) fields.set(key, value);
  }
  return fields;
}
