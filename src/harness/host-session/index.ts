/**
 * The client-free core of the pull-lane hosts (docs/49-hosts.md): connecting a host's session to
 * Brigade from its session-start hook, the per-turn heartbeat and notice, the close, and finding
 * the host process above a hook. Each client folder (`../gemini/`, `../codex/`) adapts its hooks'
 * documents to these.
 */

export {
  agentAncestor,
  MAX_ANCESTRY_STEPS,
  type ProcessEntry,
  type ProcessReader,
  processReader,
} from "./agent-ancestry.ts";
export {
  type ChangeRecordRead,
  readChangeRecord,
  writeChangeRecord,
} from "./change-record.ts";
export {
  connectHostSession,
  HOST_CONNECT_CALL_MS,
  type HostConnectResult,
  type HostSessionRequest,
  hostSessionName,
} from "./connect-host-session.ts";
export { hostContextLine } from "./context-line.ts";
export type {
  DeliveryDoor,
  DoorContext,
  DoorMessageItem,
  DoorOpening,
  DoorSession,
  DoorStep,
} from "./delivery-door.ts";
export {
  folderOwnership,
  INSTALL_MARKER,
  installMarkerFile,
  writeClientFiles,
} from "./extension-folder.ts";
export {
  type BrigadeCommand,
  CLIENT_INSTALL_CODES,
  type ClientInstallCode,
  type ClientInstallOutcome,
  type HostClient,
  type HostHookDeps,
  MAX_HOST_HOOK_INPUT_BYTES,
} from "./host-client.ts";
export {
  HOST_HOOK_EVENTS,
  type HostHookEvent,
  type HostHookSpec,
  REPOSITORY_DOTENV_LINE,
  runHostHook,
} from "./host-hook-flow.ts";
export {
  type HostHookInput,
  hookDocument,
  hookText,
  parseHostHookInput,
} from "./host-hook-input.ts";
export { hostPidOf, procComm, SHELL_NAMES } from "./host-pid.ts";
export {
  boundHostSession,
  closeHostSession,
  countWaiting,
  forgetHostProcess,
  HOST_TURN_CALL_MS,
  heartbeatHostSession,
  type WaitingCount,
  waitingNotice,
} from "./host-turn.ts";
export { type NextPost, type PostableItem, takeNextPost } from "./next-post.ts";
export {
  type ProcessLook,
  type ProcessSignature,
  processClient,
  SCRIPT_RUNTIMES,
  signatureMatches,
} from "./process-signature.ts";
export { repositoryDotenvChoice } from "./repository-dotenv.ts";
export { shellWord } from "./shell-word.ts";
