import type { Context } from "hono";
import { PROTOCOL_VERSION } from "../protocol/index.ts";

/** Where a person reads about this server: the API and operator chapters of Brigade's docs. */
export const DOCS_ADDRESS = "docs/30-http-api.md and docs/50-operator.md in the Brigade repository";

/** The JSON shape of `GET /` for a caller that asks for `application/json`. */
export interface HomeDocument {
  readonly name: "brigade";
  readonly version: string;
  readonly protocol_version: string;
  readonly api: "/v1";
  readonly health: "/v1/health";
  readonly docs: string;
}

/**
 * `GET /`: a short plain-text page for a person who opened the server's address (what this is,
 * the version, where the docs are), or {@link HomeDocument} when the `Accept` header prefers
 * `application/json` (see {@link prefersJson}). Plain text, not HTML, so nothing in it can ever be
 * rendered as markup; it holds no value from the request.
 */
export function homePage(c: Context, version: string): Response {
  c.header("vary", "accept");
  c.header("cache-control", "no-store");
  if (prefersJson(c.req.header("accept"))) {
    const home: HomeDocument = {
      name: "brigade",
      version,
      protocol_version: PROTOCOL_VERSION,
      api: "/v1",
      health: "/v1/health",
      docs: DOCS_ADDRESS,
    };
    return c.json(home);
  }
  return c.text(
    [
      `Brigade team server ${version} (BAP/${PROTOCOL_VERSION})`,
      "",
      "This is the HTTP API of a Brigade team. Sessions reach it through the brigade",
      "command and the Claude Code plugin, not through a browser.",
      "",
      "API:     /v1 (health check: /v1/health)",
      `Docs:    ${DOCS_ADDRESS}`,
      "",
    ].join("\n"),
  );
}

/** Longest `Accept` header read; a longer one is treated as absent (plain text). */
const MAX_ACCEPT_CHARS = 1024;

/**
 * Whether an `Accept` header asks for JSON over text: `application/json` (or `application/*`) is
 * listed with a quality above 0 and at least that of every text range (`text/plain`,
 * `text/html`, `text/*`, `*\/*`). No header, `*\/*` alone or a browser's list mean text.
 * Never throws; an unreadable part counts as quality 0.
 *
 * @example prefersJson("application/json") === true; prefersJson("text/html,*\/*;q=0.8") === false
 */
export function prefersJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.length > MAX_ACCEPT_CHARS) return false;
  let json = 0;
  let text = 0;
  for (const part of accept.split(",")) {
    const [range = "", ...parameters] = part.split(";");
    const type = range.trim().toLowerCase();
    const quality = qualityOf(parameters);
    if (type === "application/json" || type === "application/*") json = Math.max(json, quality);
    else if (["text/plain", "text/html", "text/*", "*/*"].includes(type)) {
      text = Math.max(text, quality);
    }
  }
  return json > 0 && json >= text;
}

function qualityOf(parameters: readonly string[]): number {
  for (const parameter of parameters) {
    const [name = "", value = ""] = parameter.split("=");
    if (name.trim().toLowerCase() !== "q") continue;
    const q = value.trim();
    return /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(q) ? Number(q) : 0;
  }
  return 1;
}
