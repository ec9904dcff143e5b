export type { Attachment } from "./attachment.ts";
export { compose } from "./compose.ts";
export { composeManifest } from "./compose-manifest.ts";
export { MAX_FILES, UPLOADS_PREFIX } from "./constants.ts";
export {
  ATTACHMENTS_ERROR_CODES,
  AttachmentsError,
  type AttachmentsErrorCode,
} from "./errors.ts";
export { neutraliseManifestLines, SENDER_TEXT_MARK } from "./neutralise-manifest.ts";
export { type ParseResult, parse } from "./parse.ts";
export { validatePaths } from "./validate-paths.ts";
