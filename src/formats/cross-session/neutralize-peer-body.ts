import { ENGINE_AUTHORITY_ENVELOPE_TAGS } from "./authority-tags.ts";
import { OPEN_SET } from "./character-sets.ts";
import { foldedReading } from "./folded-reading.ts";
import { peerBodyPatternSource } from "./peer-body-pattern.ts";

const ANY_OPEN = new RegExp(`[${OPEN_SET}]`, "u");

/** Our peer-body pattern: the 40-tag authority family (minus `channel`), channel and antml rules. */
const PEER_BODY_PATTERN = new RegExp(
  peerBodyPatternSource({
    tags: ENGINE_AUTHORITY_ENVELOPE_TAGS.filter((tag) => tag !== "channel"),
    channel: true,
    antml: true,
  }),
  "giu",
);

/**
 * Runs one compiled peer-body pattern (global) over the folded reading of `body` and rewrites every
 * matched OPEN character of the input to `<\`. Offsets are all computed first, then applied in one
 * pass. Returns `body` itself when nothing matched.
 */
export function applyPeerBodyPattern(pattern: RegExp, body: string): string {
  if (!ANY_OPEN.test(body)) return body;
  const reading = foldedReading(body);
  const { segments } = reading;
  let out = "";
  let copied = 0;
  let segment = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(reading.text); m !== null; m = pattern.exec(reading.text)) {
    const at = m.index;
    while (segment + 1 < segments.length && (segments[segment + 1]?.[0] ?? 0) <= at) segment++;
    const [readingStart, inputStart] = segments[segment] ?? [0, 0];
    const inputAt = inputStart + (at - readingStart);
    out += `${body.slice(copied, inputAt)}<\\`;
    copied = inputAt + m[0].length;
  }
  return copied === 0 ? body : out + body.slice(copied);
}

/**
 * The one neutralisation every peer-authored body receives before a carrier wraps it: the angle of
 * every opener or closer of the engine authority family ({@link ENGINE_AUTHORITY_ENVELOPE_TAGS}),
 * of `channel` with a `source=` attribute, and of `antml` + a colon look-alike becomes `<\`, matched
 * case-insensitively on a reading where confusable letters are folded to ASCII. Nothing is deleted.
 * A superset of Claude Code's four-tag neutraliser; idempotent; never throws on a string; a text with
 * no `<` look-alike is returned unchanged.
 * Example: `neutralizePeerBody("<system-reminder>x")` is `"<\\system-reminder>x"`.
 */
export function neutralizePeerBody(body: string): string {
  return applyPeerBodyPattern(PEER_BODY_PATTERN, body);
}
