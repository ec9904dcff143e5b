import { CrossSessionCodecError } from "./codec-error.ts";
import { canonicalPeerDisplayName } from "./display-name.ts";
import { escapeEnvelopeTag } from "./escape-envelope-tag.ts";
import type { CrossSessionEnvelopeFields } from "./model-envelope-fields.ts";
import { encodeScopeAttribute, isCanonicalPeerAddress } from "./percent-encoding.ts";
import { isPermissionModeClass } from "./permission-mode.ts";
import { isPeerSessionId } from "./session-id.ts";

/** Checks the argument shapes the types already promise; a violation is a programming error. */
export function assertFieldsAndBody(fields: unknown, body: unknown): void {
  if (typeof fields !== "object" || fields === null) {
    throw new TypeError("cross-session fields must be an object");
  }
  if (typeof body !== "string") throw new TypeError("cross-session body must be a string");
}

/**
 * Serialises the model-face envelope, attributes in the fixed order `from`, `from-session`,
 * `from-name`, `from-mode`, `from-scope`, each only when given (`from-name` only when its canonical
 * form is non-empty); the body goes through `escapeEnvelopeTag` only (neutralise peer bodies first).
 * Lines are joined by `\n`, no trailing newline.
 * @throws CrossSessionCodecError, first failure in attribute order: `cross_session.invalid_from`
 *   (`from` not canonical), `cross_session.invalid_from_session`, `cross_session.invalid_from_mode`,
 *   `cross_session.invalid_from_scope` (unpaired surrogate or non-string). `TypeError` when
 *   `fields` is not an object or `body` not a string.
 * Example: `buildCrossSessionEnvelope({ from: "uds:/x" }, "hi")` is
 *   `'<cross-session-message from="uds:/x">\nhi\n</cross-session-message>'`.
 */
export function buildCrossSessionEnvelope(
  fields: CrossSessionEnvelopeFields,
  body: string,
): string {
  assertFieldsAndBody(fields, body);
  const { from, fromSession, fromName, fromMode, fromScope } = fields;
  if (typeof from !== "string" || !isCanonicalPeerAddress(from)) {
    throw new CrossSessionCodecError(
      "cross_session.invalid_from",
      "from must be a canonical peer address (mint it with encodePeerAddress)",
    );
  }
  let attrs = ` from="${from}"`;
  if (fromSession !== undefined) {
    if (!isPeerSessionId(fromSession)) {
      throw new CrossSessionCodecError(
        "cross_session.invalid_from_session",
        "fromSession must match ^[A-Za-z0-9_-]{1,80}$",
      );
    }
    attrs += ` from-session="${fromSession}"`;
  }
  const name = canonicalPeerDisplayName(fromName as string);
  if (name !== "") attrs += ` from-name="${name}"`;
  if (fromMode !== undefined) {
    if (!isPermissionModeClass(fromMode)) {
      throw new CrossSessionCodecError(
        "cross_session.invalid_from_mode",
        "fromMode must be bypass or prompting",
      );
    }
    attrs += ` from-mode="${fromMode}"`;
  }
  if (fromScope !== undefined) attrs += ` from-scope="${encodeScopeAttribute(fromScope)}"`;
  return `<cross-session-message${attrs}>\n${escapeEnvelopeTag(body)}\n</cross-session-message>`;
}
