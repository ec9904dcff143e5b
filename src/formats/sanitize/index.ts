export {
  firstCodePoints,
  GO_SPACE,
  goCollapseSpace,
  goTrimSpace,
  isGoSpace,
  isWellFormedUtf8,
  repairUtf8,
  utf8ByteLength,
} from "../text/index.ts";
export { CLAUDE_CODE_TAGS, CLAUDE_CODE_TAGS_READ_FROM } from "./claude-code-tags.ts";
export type { FamilyTag, FrameTagFamily } from "./family-tag.ts";
export { familyTagAt, findFamilyTag, tagAfterOpener } from "./family-tag.ts";
export {
  sanitizeAttribute,
  sanitizeBody,
  sanitizeDescription,
  sanitizeId,
  sanitizeLabel,
  sanitizeModel,
  sanitizeName,
  sanitizeSummary,
} from "./field-variants.ts";
export { FRAME_TAG_FAMILIES } from "./frame-tag-families.ts";
export {
  MAX_ATTRIBUTE_CODEPOINTS,
  MAX_BODY_BYTES,
  MAX_DESCRIPTION_CODEPOINTS,
  MAX_LABEL_CODEPOINTS,
  MAX_MODEL_CODEPOINTS,
  MAX_NAME_CODEPOINTS,
  MAX_SUMMARY_CODEPOINTS,
  TRUNCATION_MARKER,
} from "./limits.ts";
export { NEUTRALISED_LT, neutraliseTags } from "./neutralise-tags.ts";
export { noticeName, oneLine, registeredName, UNNAMED_SESSION } from "./one-line.ts";
export { sanitize } from "./sanitize.ts";
export { sanitizeBytes } from "./sanitize-bytes.ts";
export { truncateBytes, truncateRunes } from "./truncate.ts";
