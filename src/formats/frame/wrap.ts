import { escapeEnvelopeTag } from "../cross-session/index.ts";
import { sanitizeAttribute } from "../sanitize/index.ts";
import { WRAPPER_CLOSE, WRAPPER_OPEN } from "./tokens.ts";

/**
 * Nests a frame in the native wrapper of variant C (docs/spec/formats.md §2.7):
 * `<cross-session-message from-name="F">\n` + content + `\n</cross-session-message>`, with
 * `F = sanitizeAttribute(fromName)` and content = `escapeEnvelopeTag(frame)`: the wrapper's
 * closing-tag escaping exactly as Claude Code's own sender applies it
 * (docs/spec/cross-session.md §6), so no spelling of `</cross-session-message>` in the frame can
 * close the wrapper early. A frame holding no such spelling is nested byte for byte. Only
 * `from-name` is ever set, and it is cosmetic (any member can copy a name).
 *
 * @example wrap("F", "billing-svc") === '<cross-session-message from-name="billing-svc">\nF\n</cross-session-message>'
 */
export function wrap(frame: string, fromName: string): string {
  return `${WRAPPER_OPEN} from-name="${sanitizeAttribute(fromName)}">\n${escapeEnvelopeTag(frame)}\n${WRAPPER_CLOSE}`;
}
