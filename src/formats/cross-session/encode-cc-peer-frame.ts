import { assertFieldsAndBody } from "./build-cross-session-envelope.ts";
import type { CcPeerFrameFields } from "./cc-peer-frame-fields.ts";
import { CrossSessionCodecError } from "./codec-error.ts";
import { canonicalPeerDisplayName } from "./display-name.ts";
import { escapeEnvelopeTag } from "./escape-envelope-tag.ts";
import { clampHopChain, isHopToken } from "./hop-chain.ts";
import { isCanonicalPeerAddress } from "./percent-encoding.ts";
import { isPermissionModeClass } from "./permission-mode.ts";
import { isPeerSessionId } from "./session-id.ts";

/**
 * Claude Code's wire serialiser with no validation: each value is written as given (names are
 * canonicalised, the chain clamped and joined). Callers validate first.
 */
export function serializeCcPeerFrame(fields: CcPeerFrameFields, body: string): string {
  let attrs = "";
  if (fields.from !== undefined) attrs += ` from="${fields.from}"`;
  if (fields.fromSession !== undefined) attrs += ` from-session="${fields.fromSession}"`;
  if (fields.hopChain !== undefined) {
    const chain = clampHopChain(fields.hopChain);
    if (chain.length > 0) attrs += ` hop-chain="${chain.join(",")}"`;
  }
  const name = canonicalPeerDisplayName(fields.fromName as string);
  if (name !== "") attrs += ` from-name="${name}"`;
  if (fields.fromMode !== undefined) attrs += ` from-mode="${fields.fromMode}"`;
  const plugin = canonicalPeerDisplayName(fields.fromPlugin as string);
  if (plugin !== "") attrs += ` from-plugin="${plugin}"`;
  return `<cross-session-message${attrs}>\n${escapeEnvelopeTag(body)}\n</cross-session-message>`;
}

/**
 * Serialises a Claude Code wire frame, byte-identical to Claude Code's builder for every input it
 * accepts. Attribute order `from`, `from-session`, `hop-chain` (newest 32 tokens, omitted when
 * empty), `from-name`, `from-mode`, `from-plugin`; every field optional; body through
 * `escapeEnvelopeTag`.
 * @throws CrossSessionCodecError in attribute order: `cross_session.invalid_from` (given, not
 *   canonical), `cross_session.invalid_from_session`, `cross_session.invalid_hop_chain` (not an array
 *   of 24-lower-hex tokens, checked before clamping), `cross_session.invalid_from_mode`.
 * Example: `encodeCcPeerFrame({ fromMode: "prompting" }, "")` is
 *   `'<cross-session-message from-mode="prompting">\n\n</cross-session-message>'`.
 */
export function encodeCcPeerFrame(fields: CcPeerFrameFields, body: string): string {
  assertFieldsAndBody(fields, body);
  const { from, fromSession, hopChain, fromMode } = fields;
  if (from !== undefined && !isCanonicalPeerAddress(from)) {
    throw new CrossSessionCodecError(
      "cross_session.invalid_from",
      "from must be a canonical peer address (mint it with encodePeerAddress)",
    );
  }
  if (fromSession !== undefined && !isPeerSessionId(fromSession)) {
    throw new CrossSessionCodecError(
      "cross_session.invalid_from_session",
      "fromSession must match ^[A-Za-z0-9_-]{1,80}$",
    );
  }
  if (hopChain !== undefined && !(Array.isArray(hopChain) && hopChain.every(isHopToken))) {
    throw new CrossSessionCodecError(
      "cross_session.invalid_hop_chain",
      "hopChain must be an array of 24 lower-case hex tokens",
    );
  }
  if (fromMode !== undefined && !isPermissionModeClass(fromMode)) {
    throw new CrossSessionCodecError(
      "cross_session.invalid_from_mode",
      "fromMode must be bypass or prompting",
    );
  }
  return serializeCcPeerFrame(fields, body);
}
