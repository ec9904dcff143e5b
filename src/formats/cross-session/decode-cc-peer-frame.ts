import type { CcPeerFrameFields } from "./cc-peer-frame-fields.ts";
import { serializeCcPeerFrame } from "./encode-cc-peer-frame.ts";
import type { PermissionModeClass } from "./permission-mode.ts";

/** Every reason {@link decodeCcPeerFrame} refuses a text. */
export const CC_PEER_FRAME_REFUSALS = ["not_an_envelope", "roundtrip_mismatch"] as const;

/** Result of {@link decodeCcPeerFrame}; `body` is the escaped form. */
export type CcPeerFrameParse =
  | { ok: true; fields: CcPeerFrameFields; body: string }
  | { ok: false; reason: (typeof CC_PEER_FRAME_REFUSALS)[number] };

const WIRE_FRAME =
  /^<cross-session-message(?: from="([A-Za-z0-9%:_/.\\-]+)")?(?: from-session="([A-Za-z0-9_-]{1,80})")?(?: hop-chain="([0-9a-f]{24}(?:,[0-9a-f]{24}){0,31})")?(?: from-name="([^"<>\n\r]+)")?(?: from-mode="(bypass|prompting)")?(?: from-plugin="([^"<>\n\r]+)")?>\n([\s\S]*)\n<\/cross-session-message>$/;

/**
 * Claude Code's wire parser, byte-exact: strict grammar, then rebuild-and-compare with the captured
 * `from` written verbatim (non-canonical addresses such as `uds:/x%ZZ` are accepted, as Claude Code
 * does: check `isCanonicalPeerAddress(from)` before replying or building a model face). Absent keys
 * are omitted; the hop chain comes back as an array and must never reach a model. Never throws.
 * Example: `decodeCcPeerFrame('<cross-session-message>\nhi\n</cross-session-message>')` is
 *   `{ ok: true, fields: {}, body: "hi" }`.
 */
export function decodeCcPeerFrame(text: string): CcPeerFrameParse {
  if (typeof text !== "string") return { ok: false, reason: "not_an_envelope" };
  const m = WIRE_FRAME.exec(text);
  if (m === null) return { ok: false, reason: "not_an_envelope" };
  const [, from, fromSession, hopChain, fromName, fromMode, fromPlugin, body = ""] = m;
  const fields: CcPeerFrameFields = {};
  if (from !== undefined) fields.from = from;
  if (fromSession !== undefined) fields.fromSession = fromSession;
  if (hopChain !== undefined) fields.hopChain = hopChain.split(",");
  if (fromName !== undefined) fields.fromName = fromName;
  if (fromMode !== undefined) fields.fromMode = fromMode as PermissionModeClass;
  if (fromPlugin !== undefined) fields.fromPlugin = fromPlugin;
  if (serializeCcPeerFrame(fields, body) !== text)
    return { ok: false, reason: "roundtrip_mismatch" };
  return { ok: true, fields, body };
}
