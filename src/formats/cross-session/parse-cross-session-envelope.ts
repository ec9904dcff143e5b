import { buildCrossSessionEnvelope } from "./build-cross-session-envelope.ts";
import type { CrossSessionEnvelopeFields } from "./model-envelope-fields.ts";
import { decodeScopeAttribute } from "./percent-encoding.ts";
import type { PermissionModeClass } from "./permission-mode.ts";

/** Every reason {@link parseCrossSessionEnvelope} refuses a text. */
export const CROSS_SESSION_ENVELOPE_REFUSALS = [
  "not_an_envelope",
  "bad_scope_encoding",
  "roundtrip_mismatch",
] as const;

/**
 * Why a parse refused: `not_an_envelope` (the strict grammar did not match), `bad_scope_encoding`
 * (`from-scope` not canonical percent-encoded UTF-8), `roundtrip_mismatch` (the grammar matched but
 * the canonical rebuild differs). All three mean "treat the text as ordinary data".
 */
export type CrossSessionEnvelopeRefusal = (typeof CROSS_SESSION_ENVELOPE_REFUSALS)[number];

/** Result of {@link parseCrossSessionEnvelope}; `body` is the escaped form the model saw. */
export type CrossSessionEnvelopeParse =
  | { ok: true; fields: CrossSessionEnvelopeFields; body: string }
  | { ok: false; reason: CrossSessionEnvelopeRefusal };

const MODEL_FACE =
  /^<cross-session-message from="([A-Za-z0-9%:_/.\\-]+)"(?: from-session="([A-Za-z0-9_-]{1,80})")?(?: from-name="([^"<>\n\r]+)")?(?: from-mode="(bypass|prompting)")?(?: from-scope="([A-Za-z0-9%:_/.\\-]*)")?>\n([\s\S]*)\n<\/cross-session-message>$/;

/**
 * Strict parse of a model-face envelope followed by a rebuild-and-compare: only the exact bytes
 * `buildCrossSessionEnvelope` would produce are accepted. `fields` has `from` and only the captured
 * keys (`fromScope` decoded); `body` is returned escaped. Never throws.
 * Example: `parseCrossSessionEnvelope('<cross-session-message from="uds:/x">\nhi\n</cross-session-message>')`
 *   is `{ ok: true, fields: { from: "uds:/x" }, body: "hi" }`.
 */
export function parseCrossSessionEnvelope(text: string): CrossSessionEnvelopeParse {
  if (typeof text !== "string") return { ok: false, reason: "not_an_envelope" };
  const m = MODEL_FACE.exec(text);
  if (m === null) return { ok: false, reason: "not_an_envelope" };
  const [, from = "", fromSession, fromName, fromMode, encodedScope, body = ""] = m;
  const fields: CrossSessionEnvelopeFields = { from };
  if (fromSession !== undefined) fields.fromSession = fromSession;
  if (fromName !== undefined) fields.fromName = fromName;
  if (fromMode !== undefined) fields.fromMode = fromMode as PermissionModeClass;
  if (encodedScope !== undefined) {
    const scope = decodeScopeAttribute(encodedScope);
    if (scope === undefined) return { ok: false, reason: "bad_scope_encoding" };
    fields.fromScope = scope;
  }
  let rebuilt: string;
  try {
    rebuilt = buildCrossSessionEnvelope(fields, body);
  } catch {
    return { ok: false, reason: "roundtrip_mismatch" };
  }
  if (rebuilt !== text) return { ok: false, reason: "roundtrip_mismatch" };
  return { ok: true, fields, body };
}
