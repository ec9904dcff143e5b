export { ENGINE_AUTHORITY_ENVELOPE_TAGS } from "./authority-tags.ts";
export { buildCrossSessionEnvelope } from "./build-cross-session-envelope.ts";
export type { CcPeerFrameFields } from "./cc-peer-frame-fields.ts";
export { CROSS_SESSION_CLASSIFIER_RULE } from "./classifier-rule.ts";
export {
  CROSS_SESSION_CODEC_ERROR_CODES,
  CrossSessionCodecError,
  type CrossSessionCodecErrorCode,
} from "./codec-error.ts";
export {
  CC_PEER_FRAME_REFUSALS,
  type CcPeerFrameParse,
  decodeCcPeerFrame,
} from "./decode-cc-peer-frame.ts";
export { canonicalPeerDisplayName } from "./display-name.ts";
export { encodeCcPeerFrame } from "./encode-cc-peer-frame.ts";
export { escapeEnvelopeTag } from "./escape-envelope-tag.ts";
export { clampHopChain, PEER_HOP_CHAIN_CARRY_WINDOW } from "./hop-chain.ts";
export { CROSS_SESSION_MESSAGE_NOTICE } from "./message-notice.ts";
export { CROSS_SESSION_MESSAGE_TAG } from "./message-tag.ts";
export type { CrossSessionEnvelopeFields } from "./model-envelope-fields.ts";
export { neutralizePeerBody } from "./neutralize-peer-body.ts";
export {
  CROSS_SESSION_ENVELOPE_REFUSALS,
  type CrossSessionEnvelopeParse,
  type CrossSessionEnvelopeRefusal,
  parseCrossSessionEnvelope,
} from "./parse-cross-session-envelope.ts";
export {
  decodeScopeAttribute,
  encodePeerAddress,
  encodeScopeAttribute,
  isCanonicalPeerAddress,
} from "./percent-encoding.ts";
export {
  isPermissionModeClass,
  PERMISSION_MODE_CLASSES,
  type PermissionModeClass,
} from "./permission-mode.ts";
