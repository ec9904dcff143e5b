/**
 * Safe local files, one set of rules for every caller (docs/00-architecture.md): no symbolic link
 * followed unless asked, no FIFO that hangs (`O_NONBLOCK`), regular files only, optionally owned
 * by us with owner-only modes, bounded reads checked on the open descriptor, exclusive creation,
 * atomic private writes (temporary + fsync + rename, 0600, folders 0700) and appends that never
 * follow a link. Result unions with stable tokens; nothing here throws. Only `node:` imports.
 */

export { type AppendFileOpen, appendPrivateFile, openAppendFile } from "./append-file.ts";
export { createFileExclusive } from "./create-file-exclusive.ts";
export { entryExists } from "./entry-exists.ts";
export {
  LOCAL_WRITE_FAILURES,
  type LocalWriteFailure,
  type LocalWriteResult,
} from "./local-write-result.ts";
export {
  LOCAL_FILE_REFUSALS,
  type LocalFileChecks,
  type LocalFileOpen,
  type LocalFileRefusal,
  openLocalFile,
} from "./open-local-file.ts";
export {
  checkOwnFolder,
  OWN_FOLDER_REFUSALS,
  type OwnFolderCheck,
  type OwnFolderRefusal,
} from "./own-folder.ts";
export { brigadeVersion } from "./package-version.ts";
export {
  ensurePrivateFolder,
  ensurePrivateFolders,
  PRIVATE_FOLDER_MODE,
} from "./private-folder.ts";
export {
  createPrivateTempFolder,
  PRIVATE_TEMP_FOLDER_REFUSALS,
  type PrivateTempFolder,
  type PrivateTempFolderRefusal,
} from "./private-temp-folder.ts";
export { currentUid, privateToThisUser } from "./private-to-this-user.ts";
export { type LocalFileRead, type LocalReadOptions, readLocalFile } from "./read-local-file.ts";
export { PRIVATE_FILE_MODE } from "./temp-file.ts";
export { type AtomicWriteOptions, writeFileAtomic } from "./write-file-atomic.ts";
