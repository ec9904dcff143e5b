/**
 * In-process BAP/1 adapters and the process binding that exposes them
 * (docs/spec/protocol.md §1–§9).
 */
export type { AdapterLogger, LogFields, NdjsonLoggerOptions } from "./adapter-logger.ts";
export {
  createNdjsonLogger,
  redactLogText,
  resolveLogLevel,
  silentLogger,
} from "./adapter-logger.ts";
export { EventQueue } from "./event-queue.ts";
export type { HttpAdapterEnv, HttpAdapterOptions } from "./http/index.ts";
export { HTTP_ADAPTER_NAME, HttpAdapter } from "./http/index.ts";
export type { PrivateFileErrorCode, PrivateFileRead } from "./private-files.ts";
export {
  ensurePrivateDir,
  PRIVATE_FILE_ERROR_CODES,
  PRIVATE_FILE_MODE,
  PRIVATE_FOLDER_MODE,
  PrivateFileError,
  readPrivateFile,
  throwUnlessWritten,
  writePrivateFileAtomic,
} from "./private-files.ts";
export type {
  AdapterFactory,
  AdapterFactoryContext,
  BoundAdapter,
  ProcessBindingIo,
  ProcessBindingOptions,
} from "./process-binding/index.ts";
export { runProcessBinding } from "./process-binding/index.ts";
