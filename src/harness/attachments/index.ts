/**
 * What a session may attach to a message (docs/43-session-cli.md, "Attachments"): the default
 * rules (the session's project folder, links resolved; regular files; not in `.git`; not ignored
 * by git; not a credential's name), how a person widens them in their own settings file, what is
 * never attached (Brigade's own folders, join secrets, credentials), and the one line each
 * refusal prints.
 */
export { type AttachmentLineFacts, attachmentRefusalLine } from "./attachment-lines.ts";
export {
  ATTACHMENT_SETTINGS_FILE,
  type AttachmentSettings,
  type AttachmentSettingsRead,
  type AttachmentSettingsRefusal,
  readAttachmentSettings,
  STRICT_ATTACHMENT_SETTINGS,
} from "./attachment-settings.ts";
export {
  cleanAttachmentName,
  isReceivedFileId,
  MAX_CLEAN_NAME,
  receivedFileId,
} from "./clean-name.ts";
export { CREDENTIAL_NAME_PATTERNS, isCredentialName } from "./credential-names.ts";
export { type GitIgnoreAnswer, gitIgnored } from "./git-ignored.ts";
export { type HeadFiles, MessageFiles, type MessageFilesOptions } from "./message-files.ts";
export {
  ATTACHMENT_REFUSALS,
  type AttachmentRefusal,
  type AttachmentScope,
  type PreparedAttachment,
  type PreparedAttachments,
  prepareAttachments,
} from "./prepare-attachments.ts";
export {
  RECEIVE_FAILURES,
  type ReceivedFiles,
  type ReceiveFailure,
  type ReceiveRequest,
  receiveAttachments,
} from "./receive-attachments.ts";
export { DEFAULT_UPLOADS_RETENTION_SECONDS, sweepUploads } from "./sweep-uploads.ts";
export {
  PROJECT_UPLOADS_FOLDER,
  resolveUploadsRoot,
  type UploadsRoot,
  type UploadsRootOptions,
  WORKSPACE_UPLOADS,
} from "./uploads-root.ts";
