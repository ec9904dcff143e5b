import { sanitizeAttribute } from "../sanitize/index.ts";
import { WRAPPER_CLOSE, WRAPPER_OPEN } from "./tokens.ts";

/**
 * Nests a frame in the native wrapper of variant C (formats.md §2.7):
 * `<cross-session-message from-name="F">\n` + frame + `\n</cross-session-message>`, with
 * `F = sanitizeAttribute(fromName)`. Only `from-name` is ever set, and it is cosmetic (any member
 * can copy a name); the inner frame is unchanged.
 *
 * @example wrap("F", "billing-svc") === '<cross-session-message from-name="billing-svc">\nF\n</cross-session-message>'
 */
export function wrap(frame: string, fromName: string): string {
  return `${WRAPPER_OPEN} from-name="${sanitizeAttribute(fromName)}">\n${frame}\n${WRAPPER_CLOSE}`;
}
