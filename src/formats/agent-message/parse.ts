import { goTrimSpace, toWellFormed } from "../text/index.ts";
import { PREFIX, SUFFIX } from "./constants.ts";
import type { Origin } from "./origin.ts";

/**
 * What {@link parse} returns: the origin and the rest of the message when a valid leading sentinel
 * was found; otherwise `origin: null`, `found: false` and the text unchanged.
 */
export type ParseResult =
  | { readonly found: true; readonly origin: Origin; readonly text: string }
  | { readonly found: false; readonly origin: null; readonly text: string };

/** The smallest line: PREFIX + "{}" + SUFFIX. */
const MIN_LINE_LENGTH = PREFIX.length + 2 + SUFFIX.length;

/** Outcome of reading one optional string key: absent, a value, or a wrong type (reject). */
const WRONG_TYPE = Symbol("wrong type");

/**
 * Reads an optional key per docs/spec/formats.md §3.2: absent, `null` or `""` → `undefined`; a
 * string → its well-formed value; anything else → `WRONG_TYPE`.
 */
function optionalString(
  payload: Record<string, unknown>,
  key: string,
): string | undefined | typeof WRONG_TYPE {
  if (!Object.hasOwn(payload, key)) return undefined;
  const value = payload[key];
  if (value === null || value === "") return undefined;
  return typeof value === "string" ? toWellFormed(value) : WRONG_TYPE;
}

/** Decodes and validates the payload `J`; `null` when it is not a valid v1 origin. */
function decodeOrigin(json: string): Origin | null {
  let payload: unknown;
  try {
    payload = JSON.parse(json);
  } catch {
    return null;
  }
  // J starts with "{" and ends with "}", so a successful parse is always a plain object.
  const record = payload as Record<string, unknown>;
  if (!Object.hasOwn(record, "fromSession")) return null;
  const rawFrom = record.fromSession;
  if (typeof rawFrom !== "string") return null;
  const fromSession = toWellFormed(rawFrom);
  if (goTrimSpace(fromSession) === "") return null;
  const workspace = optionalString(record, "workspace");
  if (workspace === WRONG_TYPE) return null;
  const mode = optionalString(record, "mode");
  if (mode === WRONG_TYPE) return null;
  return {
    fromSession,
    ...(workspace === undefined ? {} : { workspace }),
    ...(mode === undefined ? {} : { mode }),
  };
}

/**
 * Detects a leading v1 sentinel line (docs/spec/formats.md §3.5) and returns its origin and the
 * message after it. Never throws. Only the first line is examined: it must start with
 * {@link PREFIX}, end with {@link SUFFIX} (so a CRLF line is refused), carry one JSON object
 * between them, with a non-blank string `fromSession` and, when present, string `workspace` /
 * `mode` (`null` and `""` count as absent; any other type refuses the line). Unknown keys are
 * ignored; keys are case-sensitive; duplicate keys: the last wins. On any failure the text comes
 * back unchanged. Unpaired surrogates in the input become U+FFFD first (docs/spec/formats.md §0),
 * also in the returned text.
 *
 * @example
 * parse('<!-- lsp:agent-message-v1 {"fromSession":"ses_5","mode":"injected"} -->\nbody')
 * // { found: true, origin: { fromSession: "ses_5", mode: "injected" }, text: "body" }
 */
export function parse(text: string): ParseResult {
  const input = toWellFormed(text);
  const notFound: ParseResult = { found: false, origin: null, text: input };
  if (!input.startsWith(PREFIX)) return notFound;
  const newline = input.indexOf("\n");
  const line = newline < 0 ? input : input.slice(0, newline);
  if (line.length < MIN_LINE_LENGTH || !line.endsWith(SUFFIX)) return notFound;
  const json = line.slice(PREFIX.length, line.length - SUFFIX.length);
  if (!json.startsWith("{") || !json.endsWith("}")) return notFound;
  const origin = decodeOrigin(json);
  if (origin === null) return notFound;
  return { found: true, origin, text: newline < 0 ? "" : input.slice(newline + 1) };
}
